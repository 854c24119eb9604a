/** The short HTML page at the service's bare address: what it is, its operations and how to call them. */
import { OPERATIONS, OPERATION_NAMES, wireParams } from '../../src-shared/catalog';
import { SERVICE_PATH, escapeAttr, escapeText } from '../../src-shared/wire';
import { SERVICE_NAME } from './wsdl';

export function helpPage(namespace: string): string {
  const rows = OPERATION_NAMES.map((name) => {
    const spec = OPERATIONS[name];
    const params = wireParams(name)
      .map((p) => `<code>${escapeText(p.name)}</code>&nbsp;<small>${p.type}</small>`)
      .join(', ');
    return (
      `<tr><td><b>${name}</b></td><td lang="cs">${escapeText(spec.summary.cs)}</td><td>${escapeText(spec.summary.en)}</td>` +
      `<td>${params}</td><td><code>${spec.httpResultRoot}</code></td></tr>`
    );
  }).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${SERVICE_NAME} Web Service</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:75em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}code{font-size:.95em}</style></head>
<body>
<h1>${SERVICE_NAME}</h1>
<p>Personal bookkeeping service. Namespace <code>${escapeText(namespace)}</code>.
Service description: <a href="${escapeAttr(SERVICE_PATH)}?WSDL">${escapeText(SERVICE_PATH)}?WSDL</a>.</p>
<p>Every operation is served through SOAP 1.1 and SOAP 1.2 (POST to <code>${SERVICE_PATH}</code>), HTTP GET
(<code>${SERVICE_PATH}/&lt;Operation&gt;?name=value&amp;…</code>) and HTTP POST
(a form posted to <code>${SERVICE_PATH}/&lt;Operation&gt;</code>). Every parameter is required.</p>
<table>
<thead><tr><th>Operation</th><th>Popis</th><th>Description</th><th>Parameters</th><th>HTTP result</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}
