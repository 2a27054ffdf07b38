import { argsJsonSchema, argsText } from '../hooks/describeArgs.js';
import { ADMIN_HOOKS } from '../hooks/index.js';

/**
 * `sdkpp emulator call --list`: every hook by area, each with its arguments and what it does; with `json`,
 * one JSON array of `{ name, area, description, arguments }` whose `arguments` is a JSON Schema, for tools.
 */
export function hookList(json: boolean): string {
  if (json) {
    const hooks = ADMIN_HOOKS.map((hook) => ({
      name: hook.name,
      area: hook.area,
      description: hook.description,
      arguments: argsJsonSchema(hook),
    }));
    return `${JSON.stringify(hooks, null, 2)}\n`;
  }
  const lines = [`Admin hooks of a running emulator: sdkpp emulator call <hook> '<JSON arguments>'`];
  let area = '';
  for (const hook of ADMIN_HOOKS) {
    if (hook.area !== area) {
      area = hook.area;
      lines.push('', area);
    }
    lines.push(`  ${hook.name} ${argsText(hook)}`, `      ${hook.description}`);
  }
  return `${lines.join('\n')}\n`;
}
