import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// What `npm pack` of @servicepay/node ships (docs/sdk.md): its files, types that resolve, and an
// ESM consumer in a project of its own that compiles against it (tsc, NodeNext) and runs.

const PACKAGE_DIR = path.join(process.cwd(), 'packages', 'node');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-sdk-pack-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('npm pack of @servicepay/node', () => {
  it('ships dist (ESM and types), its README and package.json only, and a consumer compiles and runs against it', () => {
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], PACKAGE_DIR)) as { filename: string; files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path).sort();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/webhooks.js', 'dist/generated.d.ts']));
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json')).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();

    // A project outside the repository, the package installed from the tarball as npm would.
    const consumer = path.join(work, 'consumer');
    const installed = path.join(consumer, 'node_modules', '@servicepay', 'node');
    fs.mkdirSync(installed, { recursive: true });
    run('tar', ['-xzf', path.join(work, packed!.filename), '-C', installed, '--strip-components=1'], work);
    fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    fs.writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, types: ['node'], typeRoots: [path.join(process.cwd(), 'node_modules', '@types')], outDir: 'out' }, include: ['main.ts', 'wrong.ts'] }),
    );
    fs.writeFileSync(
      path.join(consumer, 'main.ts'),
      [
        "import { ServicePay, type PlanStatus, WebhookVerificationError } from '@servicepay/node';",
        "const sp = new ServicePay({ apiKey: 'pk_test_x', apiSecret: 'sk_test_x', baseUrl: 'https://pagos.example.co' });",
        'const status: Promise<PlanStatus> = sp.plans.status("sub_1");',
        'void status.catch(() => undefined);',
        "const ok: boolean = sp.webhooks.verify('{}', '0'.repeat(64), 'whsec_x');",
        "console.log(JSON.stringify({ ok, version: sp.apiVersion, error: new WebhookVerificationError('x').name }));",
      ].join('\n'),
    );
    const tsc = path.join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
    fs.writeFileSync(path.join(consumer, 'wrong.ts'), "import { ServicePay } from '@servicepay/node';\nexport const p = new ServicePay({ apiKey: 'a', apiSecret: 'b', baseUrl: 'c' }).links.create({ customer: { phone: '+57', email: 'e' }, plan: { externalReference: 'r', description: 'd', amount: '1500' } });\n");
    // A wrong type is a compile error…
    const failed = (() => {
      try {
        run(process.execPath, [tsc, '-p', '.'], consumer);
        return '';
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    })();
    expect(failed).toMatch(/wrong\.ts.*Type 'string' is not assignable to type 'number'/);
    // …and without it the consumer compiles and runs.
    fs.rmSync(path.join(consumer, 'wrong.ts'));
    run(process.execPath, [tsc, '-p', '.'], consumer);
    expect(JSON.parse(run(process.execPath, [path.join(consumer, 'out', 'main.js')], consumer))).toEqual({ ok: false, version: '2026-11-26', error: 'WebhookVerificationError' });
  }, 120_000);
});
