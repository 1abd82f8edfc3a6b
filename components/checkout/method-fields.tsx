'use client';

// The Nequi and PSE fields, the payment-method choice and Wompi's consent (docs/checkout.md).
// Controlled inputs; the form's hook (use-checkout-payment.ts) owns their values, errors and submit.

import type { ChangeEvent, ReactNode } from 'react';
import type { MethodsCopy } from '@/lib/checkout/methods-i18n';
import styles from './checkout.module.css';
import m from './methods.module.css';
import type { PseField, PseValues } from '@/lib/checkout/payment-body';
import type { ConsentDocument, PaymentMethodChoice, PseBank } from '@/lib/checkout/processor-types';

type Errors = Partial<Record<string, string>>;

function describedBy(name: string, hint: boolean, errors: Errors) {
  return [hint ? `${name}-hint` : null, errors[name] ? `${name}-error` : null].filter(Boolean).join(' ') || undefined;
}

function FieldError({ name, errors }: { name: string; errors: Errors }) {
  return errors[name] ? (
    <p id={`${name}-error`} className={styles.fieldError}>
      {errors[name]}
    </p>
  ) : null;
}

function TextField({ inputRef, ...props }: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: Errors;
  readOnly: boolean;
  hint?: string;
  inputMode?: 'numeric' | 'tel';
  autoComplete?: string;
  maxLength: number;
  inputRef?: (el: HTMLInputElement | null) => void;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        ref={inputRef}
        id={props.id}
        name={props.name}
        type={props.inputMode === 'tel' ? 'tel' : 'text'}
        required
        inputMode={props.inputMode}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        value={props.value}
        onChange={(e: ChangeEvent<HTMLInputElement>) => props.onChange(e.target.value)}
        readOnly={props.readOnly}
        aria-invalid={props.errors[props.name] ? true : undefined}
        aria-describedby={describedBy(props.name, Boolean(props.hint), props.errors)}
      />
      {props.hint ? (
        <p id={`${props.name}-hint`} className={styles.hint}>
          {props.hint}
        </p>
      ) : null}
      <FieldError name={props.name} errors={props.errors} />
    </div>
  );
}

export function MethodChoice(props: { methods: PaymentMethodChoice[]; value: PaymentMethodChoice; onChange: (m: PaymentMethodChoice) => void; copy: MethodsCopy; disabled: boolean }) {
  if (props.methods.length < 2) return null;
  return (
    <fieldset className={m.methods} disabled={props.disabled}>
      <legend>{props.copy.legend}</legend>
      <div className={m.choices}>
        {props.methods.map((method) => (
          <label key={method} className={m.choice}>
            <input type="radio" name="method" value={method} checked={props.value === method} onChange={() => props.onChange(method)} />
            {props.copy.methods[method]}
            <small>{props.copy.methodHints[method]}</small>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function NequiFields({ inputRef, ...props }: { phone: string; onChange: (v: string) => void; errors: Errors; readOnly: boolean; copy: MethodsCopy; inputRef?: (el: HTMLInputElement | null) => void }) {
  return (
    <TextField
      id="nequiPhone"
      name="phoneNumber"
      label={props.copy.nequi.phone}
      hint={props.copy.nequi.phoneHint}
      value={props.phone}
      onChange={props.onChange}
      errors={props.errors}
      readOnly={props.readOnly}
      inputMode="tel"
      autoComplete="tel-national"
      maxLength={16}
      inputRef={inputRef}
    />
  );
}

export function PseFields({ register, ...props }: {
  values: PseValues;
  onChange: (patch: Partial<PseValues>) => void;
  banks: PseBank[];
  errors: Errors;
  readOnly: boolean;
  copy: MethodsCopy;
  register: (name: PseField, el: HTMLInputElement | HTMLSelectElement | null) => void;
}) {
  const { copy, values, errors } = props;
  const ref = (name: PseField) => (el: HTMLInputElement | HTMLSelectElement | null) => register(name, el);
  if (props.banks.length === 0) return <p className={styles.fieldError}>{copy.pse.banksUnavailable}</p>;
  return (
    <>
      <div className={styles.field}>
        <label htmlFor="institutionCode">{copy.pse.bank}</label>
        <select
          ref={ref('institutionCode')}
          id="institutionCode"
          name="institutionCode"
          required
          value={values.institutionCode}
          onChange={(e) => props.onChange({ institutionCode: e.target.value })}
          disabled={props.readOnly}
          aria-invalid={errors.institutionCode ? true : undefined}
          aria-describedby={describedBy('institutionCode', false, errors)}
        >
          <option value="">{copy.pse.chooseBank}</option>
          {props.banks.map((bank) => (
            <option key={bank.code} value={bank.code}>
              {bank.name}
            </option>
          ))}
        </select>
        <FieldError name="institutionCode" errors={errors} />
      </div>
      <fieldset className={m.radios} disabled={props.readOnly}>
        <legend>{copy.pse.userType}</legend>
        {(['PERSON', 'COMPANY'] as const).map((type) => (
          <label key={type}>
            <input type="radio" name="userType" value={type} checked={values.userType === type} onChange={() => props.onChange({ userType: type, legalIdType: type === 'COMPANY' ? 'NIT' : 'CC' })} />
            {type === 'PERSON' ? copy.pse.person : copy.pse.company}
          </label>
        ))}
      </fieldset>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor="legalIdType">{copy.pse.legalIdType}</label>
          <select id="legalIdType" name="legalIdType" value={values.legalIdType} onChange={(e) => props.onChange({ legalIdType: e.target.value as PseValues['legalIdType'] })} disabled={props.readOnly}>
            {(Object.keys(copy.pse.idTypes) as PseValues['legalIdType'][]).map((type) => (
              <option key={type} value={type}>
                {copy.pse.idTypes[type]}
              </option>
            ))}
          </select>
        </div>
        <TextField id="legalId" name="legalId" label={copy.pse.legalId} value={values.legalId} onChange={(legalId) => props.onChange({ legalId })} errors={errors} readOnly={props.readOnly} maxLength={20} inputRef={ref('legalId')} />
      </div>
      <TextField id="fullName" name="fullName" label={copy.pse.fullName} value={values.fullName} onChange={(fullName) => props.onChange({ fullName })} errors={errors} readOnly={props.readOnly} autoComplete="name" maxLength={100} inputRef={ref('fullName')} />
      <TextField id="psePhone" name="phoneNumber" label={copy.pse.phone} value={values.phoneNumber} onChange={(phoneNumber) => props.onChange({ phoneNumber })} errors={errors} readOnly={props.readOnly} inputMode="tel" autoComplete="tel-national" maxLength={16} inputRef={ref('phoneNumber')} />
    </>
  );
}

function template(text: string, link: ReactNode): ReactNode {
  const [before, after] = text.split('{link}');
  return (
    <>
      {before}
      {link}
      {after}
    </>
  );
}

export function WompiConsent({ inputRef, ...props }: {
  documents: { endUserPolicy: ConsentDocument; personalData: ConsentDocument };
  accepted: { endUser: boolean; personalData: boolean };
  onChange: (next: { endUser: boolean; personalData: boolean }) => void;
  errors: Errors;
  copy: MethodsCopy;
  disabled: boolean;
  inputRef?: (el: HTMLInputElement | null) => void;
}) {
  const { copy } = props;
  const link = (doc: ConsentDocument, text: string) => (
    <a href={doc.url} target="_blank" rel="noopener noreferrer">
      {text} <span className={styles.hint}>{copy.consent.newWindow}</span>
    </a>
  );
  return (
    <fieldset className={m.consent} disabled={props.disabled} aria-describedby={props.errors.consent ? 'consent-error' : undefined}>
      <legend>{copy.consent.legend}</legend>
      <label>
        <input ref={inputRef} type="checkbox" name="acceptEndUserPolicy" checked={props.accepted.endUser} onChange={(e) => props.onChange({ ...props.accepted, endUser: e.target.checked })} aria-invalid={props.errors.consent && !props.accepted.endUser ? true : undefined} />
        <span>{template(copy.consent.endUser, link(props.documents.endUserPolicy, copy.consent.endUserLink))}</span>
      </label>
      <label>
        <input type="checkbox" name="acceptPersonalData" checked={props.accepted.personalData} onChange={(e) => props.onChange({ ...props.accepted, personalData: e.target.checked })} aria-invalid={props.errors.consent && !props.accepted.personalData ? true : undefined} />
        <span>{template(copy.consent.personalData, link(props.documents.personalData, copy.consent.personalDataLink))}</span>
      </label>
      <FieldError name="consent" errors={props.errors} />
    </fieldset>
  );
}
