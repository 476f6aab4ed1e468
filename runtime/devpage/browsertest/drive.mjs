// Drives the page of `mcpgen dev` in chromium, as a person would: load it,
// fill a tool's form, call, see the result; break the YAML, see the error;
// fix it, see the tool list change; switch tool search on, search, and
// off. Run by runtime/devpage's TestBrowser with DEV_URL, DEV_CONFIG (the
// config file to edit), CHROMIUM, and optionally SHOTS (a directory for
// screenshots). Prints "ok" at the end; any failure throws, with the step
// it was at.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const { DEV_URL, DEV_CONFIG, CHROMIUM, SHOTS } = process.env;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpgen-dev-chromium-'));
const T = 20000;
let step = 'launch';

const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  viewport: { width: 1180, height: 760 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const external = [];
try {
  const page = ctx.pages()[0] || (await ctx.newPage());
  page.on('request', (r) => { if (!r.url().startsWith(new URL(DEV_URL).origin)) external.push(r.url()); });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  const shot = async (name) => { if (SHOTS) await page.screenshot({ path: path.join(SHOTS, name) }); };

  step = 'load the page and see the tools';
  await page.goto(DEV_URL);
  await page.locator('#tools button[data-name="greet"]').waitFor({ timeout: T });
  await page.locator('#tools button[data-name="forecast"]').waitFor({ timeout: T });
  await page.locator('#conn.ok').waitFor({ timeout: T });

  step = 'the form follows the schema';
  await page.click('#tools button[data-name="forecast"]');
  await page.locator('select[name="units"]').waitFor({ timeout: T });
  const units = await page.locator('select[name="units"] option').allTextContents();
  if (units.join(',') !== '—,metric,imperial') throw new Error('units options: ' + units); // — leaves it out
  if (await page.locator('select[name="units"] option:checked').textContent() !== 'metric') throw new Error('units default not selected');
  if (await page.locator('[data-field="city"] .req').count() !== 1) throw new Error('city is not marked required');
  if (await page.inputValue('input[name="days"]') !== '3') throw new Error('days default not shown');
  await page.fill('input[name="city"]', 'Oslo');
  await page.selectOption('select[name="units"]', { label: 'imperial' });
  await page.click('button[data-add="fields"]');
  await page.selectOption('select[name="fields[0]"]', { label: 'wind' });
  await page.fill('input[name="around.radius_km"]', '25');
  await page.click('#dry-run');
  await page.locator('#dry', { hasText: 'GET https://api.weather.example/v2/forecast/Oslo' }).waitFor({ timeout: T });
  const dry = await page.textContent('#dry');
  if (!dry.includes('units=imperial') || !dry.includes('fields=wind')) throw new Error('dry run: ' + dry);
  await shot('dev-dry-run.png');

  step = 'fill a form, call, see the result';
  await page.click('#tools button[data-name="greet"]');
  await page.fill('input[name="who"]', 'Ada');
  await page.fill('input[name="times"]', '2');
  await page.click('#call');
  await page.locator('#result pre.text', { hasText: 'Hello, Ada! (warm)' }).waitFor({ timeout: T });
  await page.locator('#took').waitFor({ timeout: T });
  await page.locator('#log li', { hasText: '[info] greet: greeting Ada' }).waitFor({ timeout: T });
  await page.locator('#progress', { hasText: '1 / 2 warming up' }).waitFor({ timeout: T });
  await shot('dev-call.png');

  step = 'break the YAML, see the error';
  const good = fs.readFileSync(DEV_CONFIG, 'utf8');
  fs.writeFileSync(DEV_CONFIG, good.replace('description: Greets someone', 'descripton: Greets someone'));
  await page.locator('#problems:not([hidden])').waitFor({ timeout: T });
  const problem = await page.textContent('#problem-list');
  if (!/dev\.yaml:\d+:\d+: .*unknown field "descripton"; did you mean "description"/.test(problem)) throw new Error('problem shown: ' + problem);
  await shot('dev-error.png');

  step = 'the last good config still answers';
  await page.click('#call');
  await page.locator('#result pre.text', { hasText: 'Hello, Ada!' }).waitFor({ timeout: T });

  step = 'fix it, see the tool list change';
  fs.writeFileSync(DEV_CONFIG, good.replace('  - name: greet', `  - name: farewell
    description: Says goodbye.
    handler: {kind: shell, command: [echo, Goodbye]}
  - name: greet`));
  await page.locator('#tools button[data-name="farewell"]').waitFor({ timeout: T });
  await page.locator('#problems[hidden]').waitFor({ state: 'attached', timeout: T });
  await page.click('#tools button[data-name="farewell"]');
  await page.click('#call');
  await page.locator('#result pre.text', { hasText: 'Goodbye' }).waitFor({ timeout: T });

  step = 'see a skill and its SKILL.md';
  await page.click('#skills button[data-name="skill://trip-planning/SKILL.md"]');
  await page.locator('#detail pre', { hasText: 'Ask forecast for the city' }).waitFor({ timeout: T });

  step = 'switch tool search on, see the search tools, call one';
  await page.locator('#tool-search:not([disabled])').waitFor({ timeout: T });
  if (await page.isChecked('#tool-search')) throw new Error('tool search is on before it was switched on');
  await page.check('#tool-search');
  await page.locator('#tools button[data-name="search_tools"]').waitFor({ timeout: T });
  await page.locator('#tools button[data-name="greet"]').waitFor({ state: 'detached', timeout: T });
  await page.click('#tools button[data-name="search_tools"]');
  await page.fill('input[name="query"]', 'weather forecast for a city');
  await page.click('#call');
  await page.locator('#result pre.text', { hasText: 'forecast: The forecast for a city.' }).waitFor({ timeout: T });
  await shot('dev-tool-search.png');

  step = 'switch tool search off, see every tool again';
  await page.uncheck('#tool-search');
  await page.locator('#tools button[data-name="greet"]').waitFor({ timeout: T });
  await page.locator('#tools button[data-name="search_tools"]').waitFor({ state: 'detached', timeout: T });
  if (await page.isChecked('#tool-search')) throw new Error('tool search still shown on');

  if (external.length) throw new Error('requests to other origins: ' + external.join(', '));
  console.log('ok');
} catch (e) {
  console.error(`step "${step}": ${e.message}`);
  process.exitCode = 1;
} finally {
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
