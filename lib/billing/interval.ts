// Moved to lib/calendar/interval.ts, below every folder that reads it (docs/billing.md#intervals);
// kept for code written against this path.
export * from '@/lib/calendar/interval';
