// Musket's page: forms built from commands.json (`musket-docgen json`: every command and option
// as `musket` parses them), answers drawn from the CLI's own JSON document, computed by the
// command registry compiled to WebAssembly in a worker (worker.js). The inputs live in the URL's
// hash (#nt/battle?attacker=crown&...), so a link reproduces the answer on another phone.
'use strict';

const hidden = new Set(['help', 'format']);  // the page chooses these itself
let catalogue = null;  // commands.json
let worker = null;
let workerReady = null;
let pending = null;  // {id, resolve}
let nextId = 1;
let lastWords = null;
const files = {};  // file options' contents, by file name

const $ = (id) => document.getElementById(id);

// --- the engine ----------------------------------------------------------------------------------
function startWorker() {
  worker = new Worker('worker.js');
  workerReady = new Promise((resolve) => {
    worker.onmessage = (event) => {
      if (event.data.ready) { $('engine-state').textContent = 'ready, offline too'; resolve(); return; }
      if (pending && event.data.id === pending.id) { const p = pending; pending = null; p.resolve(event.data); }
    };
  });
}

// Runs `musket <words>` in the worker: {code, stdout, stderr, ms}.
async function runMusket(words) {
  await workerReady;
  return new Promise((resolve) => {
    pending = { id: nextId++, resolve };
    const used = {};
    for (const w of words) if (w.startsWith('/files/') && files[w.slice(7)]) used[w.slice(7)] = files[w.slice(7)];
    worker.postMessage({ id: pending.id, words, files: used });
  });
}

function cancelRun() {
  if (!pending) return;
  worker.terminate();
  const p = pending;
  pending = null;
  p.resolve({ cancelled: true });
  startWorker();
}

// --- the form ------------------------------------------------------------------------------------
function game(code) { return catalogue.games.find((g) => g.code === code); }
function command(g, name) { return g.commands.find((c) => c.name === name); }

// A plan, scenario or data file: the phone's file picker beside the field.
function isFileOption(o) { return o.name === 'file' || /\bfile\b[^,;]*JSON|JSON[^,;]*\bfile\b/.test(o.help); }

function fieldId(o) { return 'opt-' + o.name; }

function makeField(o) {
  const box = document.createElement('div');
  box.className = 'field';
  box.dataset.option = o.name;
  const label = document.createElement('label');
  label.htmlFor = fieldId(o);
  label.textContent = '--' + o.name + (o.required ? ' *' : '');
  const help = document.createElement('span');
  help.className = 'help';
  help.textContent = o.help + (o.range ? ` (${o.range[0]}..${o.range[1]})` : '') +
    (o.default !== undefined && o.default !== '' ? ` · default ${o.default}` : '');
  if (o.flag) {
    const row = document.createElement('label');
    row.className = 'flag';
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.id = fieldId(o);
    input.dataset.kind = 'flag';
    row.append(input, document.createTextNode('--' + o.name));
    box.append(row, help);
    return box;
  }
  box.append(label, help);
  if (o.repeatable) {
    const list = document.createElement('div');
    list.className = 'repeat';
    list.id = fieldId(o);
    list.dataset.kind = 'repeat';
    const g = game($('game').value);
    const add = document.createElement('button');
    add.type = 'button';
    add.textContent = (isUnitOption(o, g) ? '+ a unit for --' : '+ another --') + o.name;
    add.onclick = () => list.append(repeatItem(o, g, ''));
    list.append(repeatItem(o, g, ''));
    box.append(list, add);
    return box;
  }
  if (o.choices && !o.choices.some((c) => c.includes(':'))) {
    const select = document.createElement('select');
    select.id = fieldId(o);
    select.dataset.kind = 'value';
    const blank = document.createElement('option');
    blank.value = '';
    blank.textContent = o.required ? 'choose…' : (o.default !== undefined ? `(default: ${o.default})` : '(none)');
    select.append(blank);
    for (const c of o.choices) {
      const option = document.createElement('option');
      option.value = c;
      option.textContent = c;
      select.append(option);
    }
    box.append(select);
    return box;
  }
  if (o.range) {
    const stepper = document.createElement('div');
    stepper.className = 'stepper';
    const input = document.createElement('input');
    input.type = 'number';
    input.inputMode = 'numeric';
    input.id = fieldId(o);
    input.dataset.kind = 'value';
    input.min = o.range[0];
    input.max = o.range[1];
    if (o.default !== undefined) input.placeholder = o.default;
    const step = (by) => {
      const now = input.value === '' ? Number(o.default ?? o.range[0]) : Number(input.value);
      input.value = String(Math.min(o.range[1], Math.max(o.range[0], now + by)));
    };
    const minus = document.createElement('button');
    minus.type = 'button';
    minus.textContent = '−';
    minus.setAttribute('aria-label', 'less');
    minus.onclick = () => step(-1);
    const plus = document.createElement('button');
    plus.type = 'button';
    plus.textContent = '+';
    plus.setAttribute('aria-label', 'more');
    plus.onclick = () => step(1);
    stepper.append(minus, input, plus);
    box.append(stepper);
    return box;
  }
  if (colonParts(o)) {
    box.dataset.structured = 'colon';
    box.append(colonEditor(o, ''));
    return box;
  }
  if (isForceOption(o, game($('game').value))) {
    box.dataset.structured = 'force';
    box.append(forceEditor(o, game($('game').value), ''));
    return box;
  }
  const input = textInput(o, '');
  input.id = fieldId(o);
  box.append(input);
  if (isFileOption(o)) {
    const picker = document.createElement('input');
    picker.type = 'file';
    picker.accept = '.json,application/json';
    picker.onchange = async () => {
      const f = picker.files[0];
      if (!f) return;
      files[f.name] = new Uint8Array(await f.arrayBuffer());
      input.value = '/files/' + f.name;
    };
    box.append(picker);
  }
  return box;
}

function textInput(o, value) {
  const input = document.createElement('input');
  input.type = 'text';
  input.dataset.kind = 'value';
  input.value = value;
  input.autocapitalize = 'off';
  input.spellcheck = false;
  if (o.default !== undefined) input.placeholder = o.default;
  if (o.choices) {
    const listId = 'choices-' + o.name;
    if (!document.getElementById(listId)) {
      const list = document.createElement('datalist');
      list.id = listId;
      for (const c of o.choices) { const option = document.createElement('option'); option.value = c; list.append(option); }
      document.body.append(list);
    }
    input.setAttribute('list', listId);
  }
  return input;
}

// One value of a repeatable option: a unit's fields, a choice of words (a leader), else text.
function repeatItem(o, g, text) {
  if (isUnitOption(o, g)) return unitRow(o, g, text);
  const groups = wordGroups(o, g);
  return groups ? wordChoice(o, groups, text) : textInput(o, text);
}

// --- words from the program's lists: Great Lakes leaders -----------------------------------------
// An option whose values are words of one of the game's word choices (commands.json's `words`:
// --att-leader and --def-leader take "leader", whose groups leader.american and leader.british
// are each side's commanders in data/gl/commanders.json, the names the CLI validates a leader
// against) is a choice list as in the dashboard: none first, then each group's words under its
// name. Text the list does not hold (a link's name in other letters) stays a text field.
function wordGroups(o, g) {
  if (!o.words || !g.word_choices) return null;
  const groups = Object.entries(g.word_choices).filter(([key]) => key === o.words || key.startsWith(o.words + '.'))
    .map(([key, words]) => [key.slice(o.words.length + 1), words]);
  return groups.length ? groups : null;
}

function wordChoice(o, groups, text) {
  if (text !== '' && !groups.some(([, words]) => words.includes(text))) return textInput(o, text);
  const select = document.createElement('select');
  select.dataset.kind = 'value';
  select.className = 'words';
  select.append(new Option('none', ''));
  for (const [name, words] of groups) {
    let parent = select;
    if (name) {
      parent = document.createElement('optgroup');
      parent.label = name;
      select.append(parent);
    }
    for (const w of words) parent.append(new Option(w, w));
  }
  select.value = text;
  return select;
}

// --- Great Lakes units: a row of fields each ----------------------------------------------------
// --att, --def, --att-reinforce and --def-reinforce take NAME:TYPE:SP/MAX:MORALE:DICE[:CROSSING]
// (reinforcements [:niagara]), as the dashboard's unit table edits them: name, the type from the
// program's own list (commands.json's word_choices, calc/great_lakes/scenario.hpp's
// spec_unit_types), SP, max, morale, dice, and the crossing (or niagara) when the option's help
// offers one. Each row writes the very text `musket` takes into a hidden value, so the share link
// and the command line are those of the typed text; text the fields cannot hold (a type spelt
// another way) stays a text row.
const unitSpec = 'NAME:TYPE:SP/MAX:MORALE:DICE';
function isUnitOption(o, g) { return o.repeatable && o.help.includes(unitSpec) && g.word_choices && g.word_choices.unit_type; }

function unitRow(o, g, text) {
  const types = g.word_choices.unit_type;
  const crossings = o.help.includes('[:' + (g.word_choices.crossing || []).join('|') + ']') ? g.word_choices.crossing : null;
  const niagara = o.help.includes('[:niagara]');
  const parts = text.split(':');
  const sp = /^(\d+)(?:\/(\d+))?$/.exec(parts[2] || '');
  const last = parts[5];
  const fits = text === '' || (parts.length >= 5 && parts.length <= 6 && parts[0] !== '' && types.includes(parts[1]) && sp &&
    /^\d+$/.test(parts[3]) && /^\d+$/.test(parts[4]) &&
    (last === undefined || (crossings && crossings.includes(last)) || (niagara && last === 'niagara')));
  if (!fits) return textInput(o, text);
  const row = document.createElement('div');
  row.className = 'unit';
  const value = document.createElement('input');
  value.type = 'hidden';
  value.dataset.kind = 'value';
  const field = (name, input) => {
    const label = document.createElement('label');
    label.className = 'part ' + name.replace(/\W/g, '');
    label.append(document.createTextNode(name), input);
    return label;
  };
  const name = document.createElement('input');
  name.type = 'text';
  name.className = 'unit-name';
  name.value = parts[0] || '';
  name.autocapitalize = 'off';
  name.spellcheck = false;
  const select = (choices, chosen, blank) => {
    const sel = document.createElement('select');
    if (blank !== undefined) sel.append(new Option(blank, ''));
    for (const c of choices) sel.append(new Option(c, c));
    sel.value = chosen || '';
    return sel;
  };
  const type = select(types, text === '' ? types[0] : parts[1]);
  type.className = 'unit-type';
  const number = (cls, v, placeholder) => {
    const input = document.createElement('input');
    input.type = 'number';
    input.inputMode = 'numeric';
    input.min = '0';
    input.className = cls;
    input.value = v ?? '';
    if (placeholder !== undefined) input.placeholder = placeholder;
    return input;
  };
  const spInput = number('unit-sp', sp ? sp[1] : '');
  const maxInput = number('unit-max', sp ? sp[2] : '', 'as SP');
  const morale = number('unit-morale', parts[3]);
  const dice = number('unit-dice', parts[4]);
  const top = document.createElement('div');
  top.className = 'unit-top';
  top.append(field('name', name), field('type', type));
  const numbers = document.createElement('div');
  numbers.className = 'unit-numbers';
  numbers.append(field('SP', spInput), field('max', maxInput), field('morale', morale), field('dice', dice));
  const bottom = document.createElement('div');
  bottom.className = 'unit-bottom';
  let extra = null;
  if (crossings) {
    extra = select(crossings, last, 'no crossing');
    extra.className = 'unit-crossing';
    bottom.append(field('crossing', extra));
  } else if (niagara) {
    extra = document.createElement('input');
    extra.type = 'checkbox';
    extra.className = 'unit-niagara';
    extra.checked = last === 'niagara';
    const flag = document.createElement('label');
    flag.className = 'flag';
    flag.append(extra, document.createTextNode('across the Niagara'));
    bottom.append(flag);
  }
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'remove';
  remove.textContent = 'remove';
  remove.onclick = () => row.remove();
  bottom.append(remove);
  // The text `musket` reads (calc/great_lakes/scenario.cpp unit_spec): an untouched new row none.
  const compose = () => {
    const spText = maxInput.value === '' ? spInput.value : `${spInput.value}/${maxInput.value}`;
    const tail = crossings ? (extra.value ? ':' + extra.value : '') : niagara && extra.checked ? ':niagara' : '';
    const empty = name.value.trim() === '' && [spInput, maxInput, morale, dice].every((i) => i.value === '');
    value.value = empty ? '' : `${name.value.trim()}:${type.value}:${spText}:${morale.value}:${dice.value}${tail}`;
  };
  row.addEventListener('input', compose);
  row.addEventListener('change', compose);
  compose();
  row.append(value, top, numbers, bottom);
  return row;
}

// An editor of parts (forces, the fort): its box, with the hidden field that holds the option's
// text as the CLI takes it; text the parts cannot hold stays a plain text field (plainField).
function partsBox(o, className) {
  const box = document.createElement('div');
  box.className = className;
  box.id = fieldId(o);
  const value = document.createElement('input');
  value.type = 'hidden';
  value.dataset.kind = 'value';
  box.append(value);
  return { box, value };
}

function plainField(o, text) {
  const input = textInput(o, text);
  input.id = fieldId(o);
  return input;
}

// --- American Revolution forces: a count per unit type -------------------------------------------
// --attacker and --defender take "15M,8C" (calc/revolution/forces.cpp parse_force); as in the
// dashboard's force editor, each type letter (commands.json's word_choices.force_letter, from
// calc/revolution/forces.hpp) gets a count. The text keeps the order its letters came in (a
// link's, then as they are filled in), so a link's text comes back unchanged; text the fields
// cannot hold stays a text field.
function isForceOption(o, g) {
  return !o.repeatable && /Strength Points, e\.g\./.test(o.help) && g.word_choices && g.word_choices.force_letter;
}

function forceEditor(o, g, text) {
  const letters = g.word_choices.force_letter;
  const items = text === '' ? [] : text.split(',').map((item) => /^([1-9]\d{0,3})([A-Z]+)$/.exec(item));
  const order = items.map((m) => m && m[2]);
  if (items.some((m) => !m || !letters.includes(m[2])) || new Set(order).size !== order.length) return plainField(o, text);
  const { box, value } = partsBox(o, 'force');
  const counts = {};
  for (const letter of letters) {
    const label = document.createElement('label');
    label.className = 'part';
    const input = document.createElement('input');
    input.type = 'number';
    input.inputMode = 'numeric';
    input.min = '0';
    input.max = '9999';
    input.className = 'force-' + letter;
    const given = items.find((m) => m[2] === letter);
    input.value = given ? given[1] : '';
    input.placeholder = '0';
    counts[letter] = input;
    label.append(document.createTextNode(letter), input);
    box.append(label);
  }
  const compose = (event) => {
    const changed = event && letters.find((l) => counts[l] === event.target);
    if (changed && !order.includes(changed)) order.push(changed);
    value.value = [...order, ...letters.filter((l) => !order.includes(l))]
      .filter((l) => counts[l].value !== '' && Number(counts[l].value) !== 0)
      .map((l) => `${counts[l].value}${l}`).join(',');
  };
  box.addEventListener('input', compose);
  compose();
  return box;
}

// --- whole numbers joined by colons: the Great Lakes fort ----------------------------------------
// An option whose help gives its form as upper-case names joined by colons and nothing else
// (--fort DICE:SP:MORALE) gets a number field per name, as the dashboard's fort editor; the text
// is the numbers joined again, or nothing while all are empty.
function colonParts(o) {
  const m = /\b([A-Z]+(?::[A-Z]+)+)\b(?![/[])/.exec(o.help);
  return !o.repeatable && !o.choices && m && !o.help.includes('NAME') ? m[1].split(':') : null;
}

function colonEditor(o, text) {
  const names = colonParts(o);
  const parts = text === '' ? names.map(() => '') : text.split(':');
  if (parts.length !== names.length || !parts.every((p) => /^\d*$/.test(p))) return plainField(o, text);
  const { box, value } = partsBox(o, 'colon-parts');
  const inputs = names.map((name, i) => {
    const label = document.createElement('label');
    label.className = 'part';
    const input = document.createElement('input');
    input.type = 'number';
    input.inputMode = 'numeric';
    input.min = '0';
    input.className = 'part-' + name.toLowerCase();
    input.value = parts[i];
    label.append(document.createTextNode(name.toLowerCase()), input);
    box.append(label);
    return input;
  });
  const compose = () => { value.value = inputs.every((i) => i.value === '') ? '' : inputs.map((i) => i.value).join(':'); };
  box.addEventListener('input', compose);
  compose();
  return box;
}

function currentCommand() {
  const g = game($('game').value);
  return [g, command(g, $('command').value)];
}

function buildForm(values) {
  const [g, c] = currentCommand();
  $('summary').textContent = c.summary;
  $('fields').replaceChildren();
  $('more-fields').replaceChildren();
  let moreUsed = false;
  for (const o of c.options) {
    if (hidden.has(o.name)) continue;
    const field = makeField(o);
    const main = o.required || o.repeatable || (o.choices && o.default === undefined && !o.flag) ||
      (g.code !== 'gl' && c.name !== 'sweep' && o.range && !['trials', 'seed', 'threads', 'memory-mb', 'state-limit'].includes(o.name));
    (main ? $('fields') : $('more-fields')).append(field);
    if (values && values.has(o.name)) {
      setField(o, field, values.getAll(o.name));
      if (!main) moreUsed = true;
    }
  }
  $('more').open = moreUsed;
}

function setField(o, field, given) {
  if (o.flag) { field.querySelector('input').checked = true; return; }
  if (o.repeatable) {
    const list = field.querySelector('.repeat');
    const g = game($('game').value);
    list.replaceChildren(...given.map((v) => repeatItem(o, g, v)));
    return;
  }
  if (field.dataset.structured === 'colon') {
    field.querySelector('.colon-parts, input[data-kind=value]').replaceWith(colonEditor(o, given[0]));
    return;
  }
  if (field.dataset.structured === 'force') {
    field.querySelector('.force, input[data-kind=value]').replaceWith(forceEditor(o, game($('game').value), given[0]));
    return;
  }
  field.querySelector('[data-kind=value]').value = given[0];
}

// The form's inputs as the words after `musket`, and as the URL's hash.
function formWords() {
  const [g, c] = currentCommand();
  const words = [g.code, c.name];
  const query = new URLSearchParams();
  for (const o of c.options) {
    if (hidden.has(o.name)) continue;
    const field = document.querySelector(`.field[data-option="${o.name}"]`);
    if (o.flag) {
      if (field.querySelector('input').checked) { words.push('--' + o.name); query.append(o.name, ''); }
      continue;
    }
    for (const input of field.querySelectorAll('[data-kind=value]')) {
      const v = input.value.trim();
      if (v === '') continue;
      if (o.name === 'command') words.splice(2, 0, v); else words.push('--' + o.name, v);
      query.append(o.name, v);
    }
  }
  return { words, hash: `#${g.code}/${c.name}?${query.toString()}` };
}

function shellWord(w) { return /^[A-Za-z0-9_./:,=+@%-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`; }

// --- the answer ----------------------------------------------------------------------------------
// A probability as the CLI's tables print it (cli/number_text.cpp): one decimal, more near 0 or 1.
function percent(p) {
  if (p === 0) return '0%';
  if (p === 1) return '100%';
  if (p < 1e-6) return '<0.0001%';
  if (p > 1 - 1e-6) return '>99.9999%';
  for (let d = 1; d <= 4; d++) {
    const t = (p * 100).toFixed(d);
    if (Number(t) !== 0 && Number(t) !== 100) return t + '%';
  }
  return (p * 100).toFixed(4) + '%';
}
function plain(v) {
  if (Number.isInteger(v)) return String(v);
  return Number(v.toPrecision(4)).toString();
}
function words(key) { return key.replace(/_/g, ' '); }
function isProbabilities(v) {
  return v && typeof v === 'object' && Object.values(v).length > 0 &&
    Object.values(v).every((x) => typeof x === 'number' && x >= 0 && x <= 1);
}
function isDistribution(key, v, doc) {
  const stats = doc.stats && doc.stats[key];
  return stats && (Array.isArray(v) || (typeof v === 'object' && Object.keys(v).every((k) => /^-?\d+$/.test(k))));
}
function exactFor(doc, section, key) {
  const e = doc.exact;
  if (!e) return undefined;
  if (section && e[section] && typeof e[section] === 'object') return e[section][key];
  return e[key];
}

function bars(entries, exactOf, intervalOf) {
  const rows = document.createElement('div');
  rows.className = 'rows';
  for (const [name, p] of entries) {
    const row = document.createElement('button');
    row.type = 'button';
    row.className = 'row';
    row.dataset.key = name;
    const fill = `<div class="fill" style="width:${(p * 100).toFixed(2)}%"></div>`;
    const iv = intervalOf && intervalOf(name);
    const range = iv ? `<div class="range" style="left:${iv.low * 100}%;width:${(iv.high - iv.low) * 100}%"></div>` : '';
    row.innerHTML = `<span class="name"></span><span class="value">${p === 0 ? '-' : percent(p)}</span>` +
      `<div class="track">${fill}${range}</div>`;
    row.querySelector('.name').textContent = words(String(name));
    const exact = exactOf && exactOf(name);
    if (exact || iv) {
      row.title = 'tap for the exact fraction';
      row.onclick = () => {
        const next = row.nextElementSibling;
        if (next && next.classList.contains('exact')) { next.remove(); return; }
        const e = document.createElement('div');
        e.className = 'exact';
        e.textContent = exact ? `exactly ${exact}` : `${(iv.level * 100)}% interval ${percent(iv.low)} to ${percent(iv.high)}`;
        row.after(e);
      };
    }
    rows.append(row);
  }
  return rows;
}

function distribution(key, values, doc) {
  const box = document.createElement('div');
  const entries = Array.isArray(values) ? values.map((p, i) => [String(i), p]) : Object.entries(values);
  const stats = doc.stats[key];
  const toggle = document.createElement('div');
  toggle.className = 'toggle';
  const chance = document.createElement('button');
  chance.type = 'button';
  chance.textContent = 'chance';
  chance.setAttribute('aria-pressed', 'true');
  const atLeast = document.createElement('button');
  atLeast.type = 'button';
  atLeast.textContent = 'at least';
  atLeast.setAttribute('aria-pressed', 'false');
  toggle.append(chance, atLeast);
  const exactAll = exactFor(doc, null, key);
  const exactOf = (k) => exactAll && (Array.isArray(exactAll) ? exactAll[Number(k)] : exactAll[k]);
  let shown = bars(entries, exactOf);
  const show = (least) => {
    chance.setAttribute('aria-pressed', String(!least));
    atLeast.setAttribute('aria-pressed', String(least));
    const source = least ? stats.at_least : values;
    const list = Array.isArray(source) ? source.map((p, i) => [String(i), p]) : Object.entries(source);
    const exactLeast = doc.exact && doc.exact.stats && doc.exact.stats[key] && doc.exact.stats[key].at_least;
    const fresh = bars(list, least ? (k) => exactLeast && (Array.isArray(exactLeast) ? exactLeast[Number(k)] : exactLeast[k]) : exactOf);
    shown.replaceWith(fresh);
    shown = fresh;
  };
  chance.onclick = () => show(false);
  atLeast.onclick = () => show(true);
  const line = document.createElement('p');
  line.className = 'stats';
  line.textContent = `mean ${plain(stats.mean)}, sd ${plain(stats.sd)}, median ${stats.median}, ` +
    `90% between ${stats.p05} and ${stats.p95}, range ${stats.min} to ${stats.max}`;
  if (stats.at_least) box.append(toggle);
  box.append(shown, line);
  return box;
}

// --- a sweep's chart -----------------------------------------------------------------------------
// `sweep` answers with long-format rows ({AXIS: v, [AXIS2: v,] metric, value, [exact, illegal,
// low, high]}); the page draws them as `sweep --plot` would: the first swept option along x, one
// line per metric and second option's value, simulated values with their interval. An illegal
// point is a cross on the x axis. The palette is cli/chart_colours.hpp's; the axes, lines and
// columns are named by the document's `labels` (cli/sweep_chart.cpp sweep_labels: the names
// `--plot` gives each varied option and metric).
const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2'];
const rowFacts = new Set(['metric', 'value', 'exact', 'illegal', 'low', 'high']);
const svgNS = 'http://www.w3.org/2000/svg';
function svg(name, attributes, text) {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attributes || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function axisText(v) { return typeof v === 'number' ? plain(v) : String(v); }
// About five round steps from low to high.
function ticks(low, high) {
  if (high <= low) return [low];
  const raw = (high - low) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((m) => m >= raw);
  const out = [];
  for (let t = Math.ceil(low / step - 1e-9) * step; t <= high + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

function sweepChart(doc) {
  const rows = doc.points;
  const axes = Object.keys(rows[0]).filter((k) => !rowFacts.has(k));
  const [xName, seriesAxis] = axes;
  const label = (key) => (doc.labels && doc.labels[key]) || key;
  const xLabel = label(xName);
  const metrics = [...new Set(rows.map((r) => r.metric))];
  // As `--plot --lines` names a line: "<metric>, <second option> <value>".
  const seriesOf = (r) => [metrics.length > 1 ? label(r.metric) : '', seriesAxis ? `${label(seriesAxis)} ${axisText(r[seriesAxis])}` : '']
    .filter(Boolean).join(', ') || label(r.metric);
  const series = [...new Set(rows.map(seriesOf))];
  const xs = [...new Set(rows.map((r) => r[xName]))];
  const numericX = xs.every((v) => typeof v === 'number');
  const values = rows.flatMap((r) => [r.value, r.low, r.high]).filter((v) => typeof v === 'number');
  const probability = values.every((v) => v >= 0 && v <= 1);
  let low = probability ? 0 : Math.min(0, ...values);
  let high = probability ? 1 : Math.max(...values, low + 1);
  const yTicks = ticks(low, high);
  low = Math.min(low, yTicks[0]);
  high = Math.max(high, yTicks[yTicks.length - 1]);
  const W = 360, H = 250, left = 46, right = 12, top = 10, bottom = 44;
  const xLow = numericX ? Math.min(...xs) : 0, xHigh = numericX ? Math.max(...xs) : xs.length - 1;
  const X = (v) => {
    const t = numericX ? v : xs.indexOf(v);
    return left + 10 + (xHigh === xLow ? 0.5 : (t - xLow) / (xHigh - xLow)) * (W - left - right - 20);
  };
  const Y = (v) => top + (1 - (v - low) / (high - low)) * (H - top - bottom);
  const yText = (v) => (probability ? `${plain(v * 100)}%` : plain(v));
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'sweep-chart', role: 'img',
    'aria-label': `${metrics.map(label).join(', ')} by ${xLabel}` });
  for (const t of yTicks) {
    chart.append(svg('line', { x1: left, x2: W - right, y1: Y(t), y2: Y(t), class: 'grid' }));
    chart.append(svg('text', { x: left - 4, y: Y(t) + 4, 'text-anchor': 'end', class: 'tick' }, yText(t)));
  }
  const xTicks = numericX && xs.length > 9 ? ticks(xLow, xHigh) : xs;
  for (const t of xTicks)
    chart.append(svg('text', { x: X(t), y: H - bottom + 15, 'text-anchor': 'middle', class: 'tick' }, axisText(t)));
  chart.append(svg('line', { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: 'axis' }));
  chart.append(svg('line', { x1: left, x2: left, y1: top, y2: H - bottom, class: 'axis' }));
  chart.append(svg('text', { x: (left + W - right) / 2, y: H - 6, 'text-anchor': 'middle', class: 'label x-label' },
    xLabel));
  // The y axis as cli/sweep_chart.cpp names it: the metric, else Probability, else the metrics.
  const yLabel = metrics.length === 1 ? label(metrics[0]) : probability ? 'Probability' : metrics.map(label).join(', ');
  chart.append(svg('text', { x: -(top + H - bottom) / 2, y: 12, transform: 'rotate(-90)', 'text-anchor': 'middle',
    class: 'label y-label' }, yLabel));
  series.forEach((name, i) => {
    const colour = palette[i % palette.length];
    const mine = rows.filter((r) => seriesOf(r) === name);
    let d = '';
    let pen = 'M';
    for (const r of mine) {
      if (typeof r.value !== 'number') { pen = 'M'; continue; }
      d += `${pen}${X(r[xName]).toFixed(1)},${Y(r.value).toFixed(1)}`;
      pen = 'L';
    }
    if (d) chart.append(svg('path', { d, stroke: colour, class: 'line' }));
    for (const r of mine) {
      const x = X(r[xName]);
      const where = `${xLabel} ${axisText(r[xName])}${name !== label(r.metric) || series.length > 1 ? `, ${name}` : ''}`;
      if (typeof r.value !== 'number') {
        const y = H - bottom;
        const cross = svg('path', { d: `M${x - 4},${y - 4}l8,8m0,-8l-8,8`, stroke: colour, class: 'point illegal' });
        cross.dataset.series = name;
        cross.dataset.x = axisText(r[xName]);
        cross.append(svg('title', {}, `${where}: ${r.illegal || 'no value'}`));
        chart.append(cross);
        continue;
      }
      if (typeof r.low === 'number' && typeof r.high === 'number')
        chart.append(svg('line', { x1: x, x2: x, y1: Y(r.low), y2: Y(r.high), stroke: colour, class: 'interval' }));
      const shown = probability ? percent(r.value) : plain(r.value);
      const dot = svg('circle', { cx: x, cy: Y(r.value), r: 3.5, fill: colour, class: 'point' });
      dot.dataset.series = name;
      dot.dataset.x = axisText(r[xName]);
      dot.dataset.value = shown;
      dot.append(svg('title', {}, `${where}: ${shown}${r.exact ? ` (exactly ${r.exact})` : ''}`));
      chart.append(dot);
    }
  });
  // A tap picks the nearest x: its values, one a line, under the chart (a phone has no hover).
  const picked = document.createElement('p');
  picked.className = 'sweep-picked';
  picked.textContent = 'tap the chart for the values at a point';
  chart.onclick = (event) => {
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(chart.getScreenCTM().inverse());
    const x = xs.reduce((best, v) => (Math.abs(X(v) - at.x) < Math.abs(X(best) - at.x) ? v : best), xs[0]);
    picked.textContent = `${xLabel} ${axisText(x)}: ` + rows.filter((r) => r[xName] === x).map((r) =>
      `${seriesOf(r)} ${typeof r.value === 'number' ? (probability ? percent(r.value) : plain(r.value)) : 'illegal'}`).join('; ');
  };
  const box = document.createElement('div');
  box.className = 'sweep';
  const legend = document.createElement('ul');
  legend.className = 'legend';
  series.forEach((name, i) => {
    const item = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = palette[i % palette.length];
    item.append(swatch, document.createTextNode(name));
    legend.append(item);
  });
  // The values as a table under the chart: x down, one column per line.
  const table = document.createElement('table');
  table.className = 'sweep-values';
  const head = table.createTHead().insertRow();
  for (const h of [xLabel, ...series]) {  // a long name breaks after its dots
    const th = document.createElement('th');
    th.textContent = h.replace(/\./g, '.\u200b');
    head.append(th);
  }
  const body = table.createTBody();
  for (const x of xs) {
    const tr = body.insertRow();
    tr.insertCell().textContent = axisText(x);
    for (const name of series) {
      const r = rows.find((q) => q[xName] === x && seriesOf(q) === name);
      tr.insertCell().textContent = !r ? '' : typeof r.value === 'number' ? (probability ? percent(r.value) : plain(r.value)) : 'illegal';
    }
  }
  const scroll = document.createElement('div');
  scroll.className = 'sweep-table';
  scroll.append(table);
  box.append(chart, picked, legend, scroll);
  return box;
}

// Not sections of their own: `labels` (a sweep's) names the chart's axes and lines.
const skipped = new Set(['schema_version', 'game', 'command', 'inputs', 'defaults', 'method', 'stats', 'exact',
  'notes', 'intervals', 'dice', 'labels']);

function render(doc, headline) {
  const answer = $('answer');
  answer.replaceChildren();
  const head = document.createElement('p');
  head.className = 'headline';
  head.id = 'headline';
  head.textContent = headline || '';
  answer.append(head);
  const m = doc.method || {};
  const method = document.createElement('p');
  method.className = 'method';
  method.id = 'method';
  method.textContent = m.name === 'sweep'
    ? `sweep: ${m.points} points, ${m.legal_points} legal` + (m.simulated_points ? `, ${m.simulated_points} simulated` : '')
    : m.name === 'exact' || !m.name ? 'exact (every outcome enumerated)'
    : `${m.name}: ${m.trials ?? ''} trials, seed ${m.seed ?? ''}` +
      (m.confidence ? `, ${m.confidence * 100}% intervals (tap a bar)` : '') + (m.why ? ` · ${m.why}` : '');
  answer.append(method);
  const intervals = doc.intervals || {};
  for (const [key, value] of Object.entries(doc)) {
    if (skipped.has(key)) continue;
    const h = document.createElement('h2');
    h.textContent = words(key);
    const section = document.createElement('div');
    section.className = 'section';
    section.dataset.key = key;
    if (key === 'points' && doc.command === 'sweep' && Array.isArray(value) && value.length) {
      section.append(sweepChart(doc));
    } else if (isDistribution(key, value, doc)) {
      section.append(distribution(key, value, doc));
    } else if (isProbabilities(value) && !Array.isArray(value)) {
      section.append(bars(Object.entries(value), (k) => exactFor(doc, key, k),
        (k) => intervals[`${key}.${k}`] || intervals[k]));
    } else if (value && typeof value === 'object' && !Array.isArray(value) &&
               Object.values(value).every((x) => typeof x !== 'object' || x === null)) {
      // A number here is a probability when the document gives its exact fraction, or it lies
      // strictly between 0 and 1 (a multiplier of 1 is not a certainty).
      const probabilities = Object.entries(value).filter(([k, x]) =>
        typeof x === 'number' && x >= 0 && x <= 1 && !/^expected_|mean/.test(k) &&
        (exactFor(doc, key, k) !== undefined || (x > 0 && x < 1)));
      const others = Object.entries(value).filter(([k]) => !probabilities.some(([p]) => p === k));
      if (probabilities.length) section.append(bars(probabilities, (k) => exactFor(doc, key, k) || exactFor(doc, null, k)));
      if (others.length) {
        const list = document.createElement('dl');
        list.className = 'other';
        for (const [k, x] of others) {
          const dt = document.createElement('dt');
          dt.textContent = words(k);
          const dd = document.createElement('dd');
          dd.dataset.key = k;
          dd.textContent = typeof x === 'number' ? plain(x) : (typeof x === 'object' ? JSON.stringify(x) : String(x));
          list.append(dt, dd);
        }
        section.append(list);
      }
    } else if (typeof value !== 'object' || value === null) {
      const p = document.createElement('p');
      p.className = 'other';
      p.textContent = String(value);
      section.append(p);
    } else {
      const pre = document.createElement('pre');
      pre.className = 'other';
      pre.textContent = JSON.stringify(value, null, 1);
      section.append(pre);
    }
    answer.append(h, section);
  }
  if (doc.notes && doc.notes.length) {
    const h = document.createElement('h2');
    h.textContent = 'notes';
    const list = document.createElement('ul');
    list.className = 'notes';
    for (const n of doc.notes) { const li = document.createElement('li'); li.textContent = n; list.append(li); }
    answer.append(h, list);
  }
}

function showError(stderr) {
  const line = stderr.trim().split('\n')[0];
  $('error').textContent = line;
  $('error').hidden = false;
  const named = /^musket: --([a-z0-9-]+):/.exec(line);
  if (named) {
    const field = document.querySelector(`.field[data-option="${named[1]}"]`);
    if (field) {
      field.classList.add('bad');
      const p = document.createElement('p');
      p.className = 'problem';
      p.textContent = line;
      field.append(p);
      if (field.closest('details')) field.closest('details').open = true;
    }
  }
}

function clearErrors() {
  $('error').hidden = true;
  for (const f of document.querySelectorAll('.field.bad')) f.classList.remove('bad');
  for (const p of document.querySelectorAll('.problem')) p.remove();
}

async function calculate() {
  clearErrors();
  const { words: w, hash } = formWords();
  if (location.hash !== hash) history.replaceState(null, '', hash);
  lastWords = w;
  $('share-link').href = location.href;
  $('cli-line').textContent = 'musket ' + w.map(shellWord).join(' ');
  $('share').hidden = false;
  $('run').disabled = true;
  $('cancel').hidden = false;
  const started = performance.now();
  const busy = document.createElement('p');
  busy.className = 'busy';
  busy.id = 'busy';
  $('answer').replaceChildren(busy);
  const tick = setInterval(() => { busy.textContent = `calculating… ${((performance.now() - started) / 1000).toFixed(1)} s`; }, 100);
  document.body.dataset.state = 'running';
  const done = () => { clearInterval(tick); $('run').disabled = false; $('cancel').hidden = true; };
  const result = await runMusket([...w, '--format', 'json']);
  if (result.cancelled) { done(); busy.textContent = 'cancelled'; return; }
  if (result.code !== 0) { done(); $('answer').replaceChildren(); showError(result.stderr); return; }
  const doc = JSON.parse(result.stdout);
  render(doc, '');
  $('answer').dataset.ms = String(Math.round(result.ms));
  document.body.dataset.state = 'answered';
  // The headline is the table's first paragraph (title and verdict), from the same engine.
  const table = await runMusket([...w, '--format', 'table']);
  done();
  if (!table.cancelled && table.code === 0) {
    showHeadline(table.stdout.split('\n\n')[0]);
    document.body.dataset.state = 'headlined';
  }
}

// The table's first paragraph as the page shows it: its wrapped lines joined again, the title,
// the defaults it took (small) and the verdict (large).
function showHeadline(paragraph) {
  const lines = [];
  for (const line of paragraph.split('\n')) {
    if (line.startsWith('  ') && lines.length) lines[lines.length - 1] += ' ' + line.trim();
    else lines.push(line);
  }
  const head = $('headline');
  head.replaceChildren();
  lines.forEach((line, i) => {
    const part = document.createElement('span');
    part.className = i === 0 ? 'title' : line.startsWith('defaults:') ? 'defaults' : 'verdict';
    part.textContent = line;
    head.append(part, document.createTextNode('\n'));
  });
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); } catch (e) { prompt('Copy:', text); }
}

// --- start ---------------------------------------------------------------------------------------
function fromHash() {
  const m = /^#([a-z]+)\/([a-z-]+)\??(.*)$/.exec(location.hash);
  return m ? { game: m[1], command: m[2], values: new URLSearchParams(m[3]) } : null;
}

function fillCommands(selected) {
  const g = game($('game').value);
  $('command').replaceChildren(...g.commands.map((c) => new Option(c.name, c.name)));
  if (selected && command(g, selected)) $('command').value = selected;
}

async function start() {
  startWorker();
  catalogue = await (await fetch('commands.json')).json();
  $('version').textContent = catalogue.version;
  $('game').replaceChildren(...catalogue.games.map((g) => new Option(`${g.code}: ${g.title}`, g.code)));
  const linked = fromHash();
  if (linked && game(linked.game)) $('game').value = linked.game;
  fillCommands(linked && linked.command);
  buildForm(linked && linked.values);
  $('game').onchange = () => { fillCommands(); buildForm(); };
  $('command').onchange = () => buildForm();
  $('form').onsubmit = (e) => { e.preventDefault(); calculate(); };
  $('cancel').onclick = cancelRun;
  $('copy-link').onclick = () => copy(location.href);
  $('copy-text').onclick = async () => copy((await runMusket([...lastWords, '--format', 'table'])).stdout);
  $('copy-csv').onclick = async () => copy((await runMusket([...lastWords, '--format', 'csv'])).stdout);
  // A share link opened while the page is open: the same as loading it.
  window.addEventListener('hashchange', () => {
    const l = fromHash();
    if (!l || !game(l.game) || !command(game(l.game), l.command)) return;
    $('game').value = l.game;
    fillCommands(l.command);
    buildForm(l.values);
    calculate();
  });
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js');
  if (linked && game(linked.game) && command(game(linked.game), linked.command) && [...linked.values].length) calculate();
}

start();
