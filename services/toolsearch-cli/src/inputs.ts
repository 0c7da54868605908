import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseCatalogFiles, parseToolSearchConfig, type ParsedConfig, type Toolset } from '@toolsearch/catalog';
import { CliError } from './cli-error';

/** Reads and parses catalog files (JSON Lines); a missing file or a bad line is a `CliError`. */
export function loadCatalogs(paths: readonly string[]): { toolsets: Toolset[]; toolCount: number } {
  if (paths.length === 0) throw new CliError('--catalog is required: give one or more catalog files (JSON Lines).');
  const files = paths.map((path) => {
    try {
      return { source: path, text: readFileSync(path, 'utf8') };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
      throw new CliError(`cannot read catalog ${path}: ${why}`, { cause: error });
    }
  });
  const parsed = parseCatalogFiles(files);
  if (!parsed.ok) {
    const { source, line, message } = parsed.error;
    throw new CliError(`${source}:${line}: ${message}`);
  }
  return { toolsets: parsed.toolsets, toolCount: parsed.toolCount };
}

/**
 * Reads a YAML or JSON config file. The tool_search block may sit under `tools.tool_search` (as in
 * an agent's config) or be the whole document. Missing file → the defaults.
 */
export function loadConfig(path: string | undefined, env: Readonly<Record<string, string | undefined>>): ParsedConfig {
  let raw: unknown;
  if (path !== undefined) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read config ${path}: ${(error as Error).message}`, { cause: error });
    }
    try {
      raw = parseYaml(text);
    } catch (error) {
      throw new CliError(`${path}: not valid YAML or JSON (${(error as Error).message.split('\n')[0]})`, {
        cause: error,
      });
    }
    if (typeof raw === 'object' && raw !== null && 'tools' in raw) {
      const tools = (raw as { tools: unknown }).tools;
      raw =
        typeof tools === 'object' && tools !== null && 'tool_search' in tools
          ? (tools as { tool_search: unknown }).tool_search
          : undefined;
    }
  }
  return parseToolSearchConfig(raw, { enableToolSearch: env['ENABLE_TOOL_SEARCH'] });
}

/** Parses a whole number option with bounds, or fails with a message that names the option. */
export function readInteger(option: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim().replace(/_/g, '');
  const suffix = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(trimmed);
  if (!suffix)
    throw new CliError(`${option} must be a whole number (for example 200000 or 200k), not ${JSON.stringify(value)}.`);
  const scale = suffix[2]?.toLowerCase() === 'k' ? 1000 : suffix[2]?.toLowerCase() === 'm' ? 1_000_000 : 1;
  const number = Number(suffix[1]) * scale;
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new CliError(`${option} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  }
  return number;
}
