/**
 * A self-hosted service with a self-signed certificate, in Chromium through the browser shell: Connect
 * shows that no authority vouches for the certificate, with the SHA-256 fingerprint openssl prints, and
 * connects once the user trusts it. When the service later presents another certificate, the screen
 * says it changed, shows both fingerprints, and connects only when the user trusts the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import { makeCertificate, opensslFor, type TestCertificate } from '../support/certificates';
import { tempDir } from '../support/client';
import {
  type AppPage,
  DEMO,
  connect,
  go,
  loose,
  openApp,
  poll,
  realErrors,
  screenshot,
  setAppearance,
  startStack,
  textOf,
  type Stack,
} from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

const openssl = opensslFor(import.meta.url);

const tmp = tempDir('bookkeeping-e2e-tls-');
let first: TestCertificate;
let second: TestCertificate;
let stack: Stack;
let app: AppPage;

beforeAll(async () => {
  if (!openssl) return;
  first = makeCertificate(tmp.dir, { name: 'first' });
  second = makeCertificate(tmp.dir, { name: 'second' });
  stack = await startStack({ service: { tls: { cert: first.cert, key: first.key } } });
  app = await openApp(stack, 'en-US');
});
afterAll(async () => {
  await app?.context.close();
  await stack?.close();
  tmp.remove();
});

describe.skipIf(!openssl || !found)('a service with a self-signed certificate', () => {
  it('shows the fingerprint, connects once trusted, and refuses a changed certificate until the new one is trusted', async () => {
    const { page } = app;
    // First run, in the system's language (English) and light scheme.
    await connect(page, stack.service);
    const panel = page.getByTestId('certificate-refused');
    await panel.waitFor();
    expect(loose(await panel.locator('.alert-title').textContent())).toBe(
      'No authority this computer trusts vouches for the service’s certificate',
    );
    expect(await textOf(page.getByTestId('certificate-fingerprint'))).toBe(first.fingerprint);
    expect(await page.getByTestId('trust-certificate').textContent()).toContain('Trust this certificate and connect');
    await screenshot(page, 'connect-certificate-untrusted-en-light');

    await page.getByTestId('trust-certificate').click();
    await poll(() => page.evaluate(() => location.hash)).toBe('#/accounts');
    await poll(() => page.getByTestId('balance').count()).toBeGreaterThan(0);
    expect((await stack.core.getStatus()).connection?.trustedCertificate).toBe(first.fingerprint);

    // The service comes back with another certificate; the user opens Connection and tries again.
    await stack.service.stop();
    await stack.service.start({ tls: { cert: second.cert, key: second.key } });
    await setAppearance(page, 'cs', 'dark');
    await go(page, '/connect');
    await page.locator('input[name=clientKey]').fill(DEMO.clientKey);
    await page.locator('input[name=password]').fill(DEMO.password);
    await page.getByTestId('connect').click();
    await panel.waitFor();
    expect(loose(await panel.locator('.alert-title').textContent())).toBe('Certifikát služby se změnil');
    expect(await textOf(page.getByTestId('certificate-fingerprint'))).toBe(second.fingerprint);
    expect(loose(await panel.textContent())).toContain(first.fingerprint);
    expect((await stack.core.getStatus()).connection?.trustedCertificate).toBe(first.fingerprint);
    await screenshot(page, 'connect-certificate-changed-cs-dark');

    await page.getByTestId('trust-certificate').click();
    await poll(() => page.evaluate(() => location.hash)).toBe('#/accounts');
    expect((await stack.core.getStatus()).connection?.trustedCertificate).toBe(second.fingerprint);
    expect(realErrors(app.errors)).toEqual([]);
  });
});
