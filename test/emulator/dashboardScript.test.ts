import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Script } from 'node:vm';

import { describe, expect, it } from 'vitest';

import {
  DASHBOARD_SCRIPT_OUTPUT,
  DASHBOARD_SCRIPT_SOURCE,
  transpileDashboardScript,
} from '../../packages/emulator/scripts/dashboard-script.js';
import { DASHBOARD_SCRIPT_FILE, dashboardScript } from '../../packages/emulator/src/dashboard/appScript.js';

describe('the dashboard browser script', () => {
  it('is browser/app.ts as the build left it in dist/: its types removed, a classic script for the page', () => {
    expect(DASHBOARD_SCRIPT_FILE).toBe(DASHBOARD_SCRIPT_OUTPUT);
    const served = dashboardScript();
    if (served instanceof Error) throw served;
    const fresh = transpileDashboardScript(
      readFileSync(path.join('packages/emulator', DASHBOARD_SCRIPT_SOURCE), 'utf8'),
    );
    expect(
      served === fresh,
      `${DASHBOARD_SCRIPT_OUTPUT} is older than its source: run npm run build:ts`,
    ).toBe(true);
    // A classic script: `<script src defer>` cannot load a module (no import or export may be left).
    expect(() => new Script(served)).not.toThrow();
    expect(served.startsWith("'use strict';")).toBe(true);
  });
});
