/**
 * Ingest manifests: clip rows and consent rows, as CSV (header row) or JSON Lines.
 * A folder holds `manifest.csv|manifest.jsonl` and `consent.csv|consent.jsonl`;
 * a manifest file finds its consent file in the same folder. See docs/audio.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Row = Record<string, string>;

export interface ManifestFiles {
  /** Folder that clip paths are relative to. */
  dir: string;
  clips: Row[];
  consents: Row[];
  /** Where the consent rows came from (undefined when there is no consent file). */
  consentFile: string | undefined;
}

/** Reads the manifest and consent rows for `target` (a folder or a manifest file). */
export function readManifest(target: string): ManifestFiles {
  const isDir = existsSync(target) && !/\.(csv|jsonl)$/i.test(target);
  const dir = isDir ? target : path.dirname(target);
  const manifest = isDir ? firstExisting(dir, ['manifest.csv', 'manifest.jsonl']) : target;
  if (!manifest) throw new Error(`${target} holds no manifest.csv or manifest.jsonl`);
  if (!existsSync(manifest)) throw new Error(`no such manifest: ${manifest}`);
  const consentFile = firstExisting(dir, ['consent.csv', 'consent.jsonl']);
  return { dir, clips: readRows(manifest), consents: consentFile ? readRows(consentFile) : [], consentFile };
}

function firstExisting(dir: string, names: string[]): string | undefined {
  return names.map((n) => path.join(dir, n)).find((f) => existsSync(f));
}

/** Rows of a CSV (first line = header) or JSON Lines file, every value as a string. */
export function readRows(file: string): Row[] {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  if (file.toLowerCase().endsWith('.jsonl')) {
    return text
      .split(/\r?\n/)
      .map((line, i) => ({ line: line.trim(), i }))
      .filter(({ line }) => line !== '' && !line.startsWith('#'))
      .map(({ line, i }) => {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          throw new Error(`${path.basename(file)} line ${i + 1}: not valid JSON`);
        }
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${path.basename(file)} line ${i + 1}: not a JSON object`);
        return Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== null && v !== undefined)
            .map(([k, v]) => [k, Array.isArray(v) ? v.join(';') : String(v)]),
        );
      });
  }
  const records = parseCsv(text);
  const header = records.shift()?.map((h) => h.trim()) ?? [];
  return records.filter((r) => r.some((cell) => cell.trim() !== '')).map((r) => Object.fromEntries(header.map((h, i) => [h, (r[i] ?? '').trim()]).filter(([, v]) => v !== '')));
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
