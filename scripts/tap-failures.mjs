#!/usr/bin/env node
/**
 * Prints the failed assertions of a saved TAP run (`npm test 2>&1 | tee log`), each with its full
 * name and diagnostics. CI shows only the tail of a run's output, and tap's summary there says how
 * many failed but not which: `.ci/run` calls this after a failed run so the failures are what it
 * prints last.
 *
 *   node scripts/tap-failures.mjs <tap log>
 *
 * Only the innermost failures are listed: a failed assertion also fails the subtests and the file
 * around it, and those add nothing. Exits 1 when it found failures, 0 when it found none.
 */
import { createReadStream } from 'node:fs';
import { Parser } from 'tap-parser';
import { stringify } from 'tap-yaml';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/tap-failures.mjs <tap log>');
  process.exit(2);
}

const failures = [];
/** @param {Parser} parser */
const watch = (parser) => {
  parser.on('assert', (result) => {
    if (!result.ok && !result.todo && !result.skip) failures.push(result);
  });
  parser.on('child', watch);
};
const parser = new Parser();
watch(parser);
parser.on('complete', () => {
  const innermost = failures.filter(
    (failure) => !failures.some((other) => other !== failure && other.fullname.startsWith(`${failure.fullname} > `)),
  );
  if (innermost.length === 0) {
    console.log(
      `no failed assertion in ${file}: the failure is in the output before the tests (type-check or build) or a crash`,
    );
    process.exit(0);
  }
  console.log(`${innermost.length} failed assertion(s) in ${file}:`);
  for (const failure of innermost) {
    console.log(`\nnot ok - ${failure.fullname}`);
    if (failure.diag) console.log(stringify(failure.diag).replace(/^/gm, '    ').trimEnd());
  }
  process.exit(1);
});
createReadStream(file).pipe(parser);
