// GET /portal/export/audit?q=&area=: the signed-in merchant's audit log as CSV, with the page's filters (secrets masked as stored).
import { auditCsv, auditFilterOf } from '@/lib/portal/audit-page';
import { csvExport } from '@/lib/portal/csv-export';

export const GET = csvExport('audit-log.csv', auditFilterOf, auditCsv);
