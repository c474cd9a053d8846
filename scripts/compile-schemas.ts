import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../lib/build-info.ts';
import { loadConfig } from '../lib/config.ts';
import { compiledSchemasFile, recordedModule, startRecording } from '../lib/schemas/compiled.ts';

/**
 * `npm run build`, after bundling: builds the app once, records the code of each validator and
 * serializer its routes compile, and writes the table a production start loads. Returns how many functions it holds.
 */
export async function writeCompiledSchemas(): Promise<number> {
  startRecording();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'asdas-schemas-'));
  try {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      METRICS_PORT: '0',
      PLAY_SECRET: randomBytes(32).toString('base64url'),
    });
    const { buildApp } = await import('../app.ts');
    const app = await buildApp({ config });
    await app.ready();
    await app.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const code = recordedModule();
  writeFileSync(join(projectRoot, compiledSchemasFile), code);
  return (code.match(/^exports\[/gm) ?? []).length;
}
