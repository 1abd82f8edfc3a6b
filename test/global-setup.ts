import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { migratePostgresDatabase, openPglite, openPostgres } from '../db/client';
import { createTestCertificates } from './tls';

// One migrated database per run, cloned by each test file (test/database.ts): on PostgreSQL a
// template database, on PGlite a dump of its data directory. Cloning costs far less than migrating.

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    pgliteDump: string;
  }
}

const RUN = `${process.pid}_${Date.now().toString(36)}`;

/** The test CA for HTTPS webhook receivers, trusted by the test workers (forked after this runs). */
function trustTestCertificates(): () => void {
  const certificates = createTestCertificates();
  process.env.SERVICEPAY_TEST_TLS_DIR = certificates.dir;
  process.env.NODE_EXTRA_CA_CERTS = certificates.caFile;
  return () => fs.rmSync(certificates.dir, { recursive: true, force: true });
}

export default async function setup(project: TestProject) {
  const removeCertificates = trustTestCertificates();
  const teardown = await setupDatabase(project);
  return async () => {
    await teardown();
    removeCertificates();
  };
}

async function setupDatabase(project: TestProject): Promise<() => void | Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    const template = `sp_tpl_${RUN}`;
    await admin.unsafe(`create database ${template}`);
    const target = new URL(url);
    target.pathname = `/${template}`;
    const database = await openPostgres(target.toString(), { max: 1 });
    await migratePostgresDatabase(database);
    await database.close();
    project.provide('templateDatabase', template);
    project.provide('pgliteDump', '');
    return async () => {
      const leftovers = await admin<{ datname: string }[]>`
        select datname from pg_database where datname like ${`sp_test_${RUN}%`} or datname = ${template}`;
      for (const { datname } of leftovers) await admin.unsafe(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }
  const database = await openPglite();
  const dump = path.join(os.tmpdir(), `servicepay-template-${RUN}.tar.gz`);
  fs.writeFileSync(dump, Buffer.from(await (await database.dump!()).arrayBuffer()));
  await database.close();
  project.provide('templateDatabase', '');
  project.provide('pgliteDump', dump);
  return () => fs.rmSync(dump, { force: true });
}
