// Latency at a steady rate: requests leave on an even schedule (open loop) over at most 50
// keep-alive connections, and each latency runs from the request's scheduled time, so a slow
// answer that delays the next ones counts against the server. autocannon's own rate option sends
// each connection's quota for a second back to back at the top of the second, a burst that
// measures the queue rather than the request path. The first LEAD_IN_SECONDS are sent but not
// counted: they open the connections and let the server settle after the flat-out runs before it.
import http from 'node:http';
import { CONNECTIONS, expectedStatus, type LoadOptions, resultOf, type RunResult } from './load';

export const LEAD_IN_SECONDS = 2;

export async function runPaced(options: LoadOptions & { rate: number }): Promise<RunResult> {
  const { scenario, rotation, rate, seconds } = options;
  const leadIn = Math.round(rate * LEAD_IN_SECONDS);
  const { hostname, port } = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const total = leadIn + Math.round(rate * seconds);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let settled = 0;

  const fire = (scheduled: number, counted: boolean, done: () => void) => {
    const { method, path, headers, body } = rotation.request(scenario);
    const req = http.request({ agent, hostname, port, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        if (counted) {
          statusCodes[code] = (statusCodes[code] ?? 0) + 1;
          if (expectedStatus(scenario, code)) latencies.push(performance.now() - scheduled);
        } else if (!expectedStatus(scenario, code)) {
          // The lead-in is not timed, but every answer is checked.
          errors++;
        }
        done();
      });
    });
    req.on('error', () => {
      errors++;
      done();
    });
    req.end(body);
  };

  const started = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    const done = () => {
      if (++settled === total) resolve();
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + (sent * 1000) / rate <= now) {
        fire(started + (sent * 1000) / rate, sent >= leadIn, done);
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  const counted = (performance.now() - started) / 1000 - LEAD_IN_SECONDS;
  agent.destroy();
  return { ...resultOf(latencies, { statusCodes, errors, timeouts: 0 }, counted), requests: total };
}
