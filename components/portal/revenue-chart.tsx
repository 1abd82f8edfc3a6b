'use client';

import { useSyncExternalStore } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCop } from '@/lib/i18n/format';

interface RevenueDay {
  day: string;
  revenue: number;
}

const noSubscription = () => () => {};
const compact = new Intl.NumberFormat('es-CO', { notation: 'compact', maximumFractionDigits: 1 });
const dayLabel = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/**
 * Approved revenue per day as bars (Recharts: keyboard-navigable with its accessibility layer).
 * The same figures are in the table beside it, for screen readers and for copying. Until the
 * chart is drawn in the browser (and for good without JavaScript) a placeholder of its size says
 * so and points to that table.
 */
export function RevenueChart({ days, label, revenueLabel, loading }: { days: RevenueDay[]; label: string; revenueLabel: string; loading: string }) {
  // False on the server and in the first render of hydration, true after: the placeholder until then.
  const drawn = useSyncExternalStore(noSubscription, () => true, () => false);
  return (
    <div className="chart" aria-busy={!drawn}>
      {drawn ? (
        <BarChart responsive style={{ width: '100%', height: '100%' }} data={days} title={label} desc={label} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#d9dee7" />
          <XAxis dataKey="day" tickFormatter={dayLabel} tick={{ fill: '#4a5568', fontSize: 12 }} minTickGap={16} />
          <YAxis tickFormatter={(cents: number) => `$${compact.format(cents / 100)}`} tick={{ fill: '#4a5568', fontSize: 12 }} width={56} />
          <Tooltip formatter={(cents) => [formatCop(Number(cents)), revenueLabel]} labelFormatter={(day) => dayLabel(String(day))} />
          <Bar dataKey="revenue" name={revenueLabel} fill="#0b6e4f" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      ) : (
        <p className="chart-loading" data-testid="chart-loading">
          {loading}
        </p>
      )}
    </div>
  );
}
