#!/usr/bin/env node
// The compiled CLI; `npm install` builds it (the "prepare" script).
import('../libs/rules/dist/cli/main.js').then((cli) => cli.main(process.argv.slice(2)));
