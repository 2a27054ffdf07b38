#!/usr/bin/env node
/** The `sdkpp-emulator` command: the emulator's command line on this process's arguments. */
import { runEmulatorCliProcess } from './cliMain.js';

runEmulatorCliProcess(process.argv.slice(2));
