import fs from 'node:fs';
import { ensureBuild } from '@/bench/setup';
import { createTestCertificates } from '@/test/tls';

// Once per resilience run: one production build shared by every server the suite starts (made
// only when a source file is newer than it), and the test CA the servers and receivers trust.

export default function setup() {
  const started = Date.now();
  const { built } = ensureBuild();
  console.info(built ? `production build made in ${Math.round((Date.now() - started) / 1000)} s` : 'production build is current');
  const certificates = createTestCertificates();
  process.env.SERVICEPAY_TEST_TLS_DIR = certificates.dir;
  process.env.NODE_EXTRA_CA_CERTS = certificates.caFile;
  return () => fs.rmSync(certificates.dir, { recursive: true, force: true });
}
