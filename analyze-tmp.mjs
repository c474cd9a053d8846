import { createBuilder } from 'vite';
import { brotliCompressSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';
process.env.NODE_ENV = 'production';
const builder = await createBuilder({
  configFile: '/work/main/vite.config.ts', logLevel: 'warn', mode: 'production',
  environments: { client: { build: { sourcemap: true } } },
  plugins: [{ name: 'sizes', generateBundle(_o, bundle) {
    if (this.environment.name !== 'client') return;
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk' || !chunk.fileName.includes('app-')) continue;
      const smc = new SourceMapConsumer(chunk.map);
      const lines = chunk.code.split('\n');
      const owner = new Map();
      let last = null;
      const mappings = [];
      smc.eachMapping((m) => mappings.push(m));
      for (let i = 0; i < mappings.length; i++) {
        const m = mappings[i], n = mappings[i + 1];
        const line = lines[m.generatedLine - 1];
        const end = n && n.generatedLine === m.generatedLine ? n.generatedColumn : line.length;
        const text = line.slice(m.generatedColumn, end);
        const src = m.source ?? '?';
        const key = src.includes('node_modules') ? src.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : src.replace(/.*\/work\/main\//, '').replace(/^(\.\.\/)+/, '');
        owner.set(key, (owner.get(key) ?? '') + text);
      }
      const rows = [...owner].map(([k, code]) => [k, code.length]).sort((a, b) => b[1] - a[1]);
      const total = chunk.code.length, totalBr = brotliCompressSync(chunk.code).length;
      for (const r of rows.slice(0, 40)) console.log(String(r[1]).padStart(8), String(Math.round(r[1] / total * totalBr)).padStart(7), r[0]);
      console.log('total', total, totalBr);
    }
  } }],
});
await builder.build(builder.environments.client);
