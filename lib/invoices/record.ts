import './hand-off';

// What the settlement and the void record (docs/einvoicing.md#issuing), loaded with the hand-off
// that issues each document once its unit of work commits (hand-off.ts): whoever can record an
// invoice has loaded its sender, as with e-mails (lib/email/record.ts).

export { noteInvoice, noteVoidedCharge } from './documents';
