/** `connect`: checks the service and the credentials and keeps the connection. */
import { UsageError } from '../../../src-node/cli';
import { warningText, type ConnectionWarning } from '../../../src-shared/app-api';
import { addressWarnings } from '../../core/soap-client';
import { defineCommand } from '../command';
import { bindingArg } from '../values';

export const connect = defineCommand({
  name: 'connect',
  summary:
    "Checks the service and the credentials and keeps the connection (password from BOOKKEEPING_PASSWORD or a prompt). --trust-certificate accepts a self-signed service's certificate by its SHA-256 fingerprint, as the refusal shows it; any other is then refused.",
  options: {
    url: { type: 'string', value: '<baseUrl>', description: "the service's address, such as https://books.example.com", required: true },
    login: { type: 'string', value: '<login>', description: 'your login', required: true },
    namespace: { type: 'string', value: '<ns>', description: "the operations' XML namespace (default: the one the service's WSDL names)" },
    binding: {
      type: 'string',
      value: 'soap12|soap11|httpGet|httpPost',
      description: 'how requests travel (default soap12)',
      read: bindingArg,
    },
    'trust-certificate': {
      type: 'string',
      value: '<sha256>',
      description: "the SHA-256 fingerprint of the service's certificate to trust although no authority vouches for it",
    },
  },
  notes:
    'The client key comes from BOOKKEEPING_CLIENT_KEY, a file (--key-file <file>, its first line) or the prompt, and is kept sealed under the password.',
  async run(ctx) {
    const { url, login, namespace, binding, 'trust-certificate': trustedCertificate } = ctx.options;
    const clientKey = ctx.clientKey ?? ctx.io.env.BOOKKEEPING_CLIENT_KEY ?? (await ctx.io.prompt?.('Client key: '));
    if (!clientKey) throw new UsageError('The client key is required: BOOKKEEPING_CLIENT_KEY, --key-file <file> or the prompt.');
    const password = ctx.io.env.BOOKKEEPING_PASSWORD || (await ctx.io.prompt?.('Password: '));
    if (!password) throw new UsageError('The password is required: BOOKKEEPING_PASSWORD or the prompt.');
    // A malformed address is reported by the core below; only a valid one can earn a warning.
    let warnings: ConnectionWarning[] = [];
    try {
      warnings = addressWarnings(url);
    } catch {
      // Not an address at all: the core's check below says why.
    }
    for (const warning of warnings) ctx.io.stderr(`warning: ${warningText(warning)}`);
    const status = await ctx.core.connect({
      baseUrl: url,
      login,
      clientKey,
      password,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(binding !== undefined ? { binding } : {}),
      ...(trustedCertificate !== undefined ? { trustedCertificate } : {}),
    });
    ctx.out(
      status,
      `Connected to ${status.connection!.baseUrl} as ${status.connection!.login} (namespace ${status.connection!.namespace}). Run "sync" to fetch the data.`,
    );
  },
});
