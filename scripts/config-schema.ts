/**
 * The config document's JSON Schema, generated from the valibot schema the proxy validates with
 * (src/config/schema.ts), so an editor completes and checks configs: `npm run schema` writes
 * `config.schema.json`; test/config-schema.test.ts fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toJsonSchema } from '@valibot/to-json-schema';
import { ConfigSchema } from '../src/config/schema.ts';

export function configJsonSchema(): string {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Interlingua configuration',
    description: 'One JSON document: upstreams (who to call, in which dialect), models (which model goes where), keys and limits. See docs/configuration.md.',
    ...toJsonSchema(ConfigSchema, { errorMode: 'throw' }),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = fileURLToPath(new URL('../config.schema.json', import.meta.url));
  writeFileSync(out, configJsonSchema());
  console.log(`wrote ${out}`);
}
