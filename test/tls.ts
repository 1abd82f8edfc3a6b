import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A throwaway certificate authority for HTTPS webhook receivers in tests. The server process
// trusts it the way an operator would, through NODE_EXTRA_CA_CERTS (docs/operations.md#running-it); a second,
// self-signed certificate that nobody trusts stands in for a receiver with a bad certificate.

export interface TestCertificates {
  dir: string;
  /** The CA certificate to put in NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Signed by the CA, for localhost, 127.0.0.1 and ::1. */
  server: { key: string; cert: string };
  /** Self-signed for the same names: not trusted. */
  untrusted: { key: string; cert: string };
}

const SAN = 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1';
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]) {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** Creates the CA and certificates in a new temporary directory. */
export function createTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-tls-'));
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '7', '-subj', '/CN=ServicePay Test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  openssl(dir, ['req', ...EC, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  fs.writeFileSync(path.join(dir, 'server.ext'), `${SAN}\nextendedKeyUsage=serverAuth\n`);
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-out', 'server.pem', '-days', '7', '-extfile', 'server.ext']);
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'untrusted.key', '-out', 'untrusted.pem', '-days', '7', '-subj', '/CN=localhost',
    '-addext', SAN]);
  return loadTestCertificates(dir);
}

export function loadTestCertificates(dir: string): TestCertificates {
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    server: { key: read('server.key'), cert: read('server.pem') },
    untrusted: { key: read('untrusted.key'), cert: read('untrusted.pem') },
  };
}

/** The certificates of this test run (made by the global setup, which also trusts their CA). */
export function testCertificates(): TestCertificates {
  const dir = process.env.SERVICEPAY_TEST_TLS_DIR;
  if (!dir) throw new Error('SERVICEPAY_TEST_TLS_DIR is unset: run the tests through vitest (test/global-setup.ts)');
  return loadTestCertificates(dir);
}
