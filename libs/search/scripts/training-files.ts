/**
 * The training requests' files (`training/`) and who reads which. `synthetic-requests.jsonl` holds
 * the first rounds (English for every tool, Japanese or Chinese for 2,127); `more-ja-zh-requests.jsonl`
 * the Japanese and Chinese lines written later. The example requests (`example-requests.ts`) are
 * built from both; related words (`learn-associations.ts`) and the request encoder
 * (`learn-request-encoder.ts`) from the first only: relearned with the later lines, the related
 * words lost tuning hits (917 → 913 of 989, StableToolBench tuning R@5 0.778 → 0.776) and the
 * encoder LiveMCPBench tuning hits (47 → 44 of 61), for no gain elsewhere (BENCHMARKS.md,
 * twenty-third session).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Every training file, in reading order. */
export const TRAINING_FILES = [
  resolve(here, '../training/synthetic-requests.jsonl'),
  resolve(here, '../training/more-ja-zh-requests.jsonl'),
] as const;

/**
 * Requests no tool of the union serves (query-file format, no gold): the example requests keep them
 * as examples of "nothing fits" (`EXAMPLES.nothing`); nothing else learns from them.
 */
export const NO_CAPABILITY_FILE = resolve(here, '../training/no-capability-requests.jsonl');

/** The files the request encoder is trained on. */
export const ENCODER_TRAINING_FILES = TRAINING_FILES.slice(0, 1);

/** The files related words are learned from (`learn-associations.ts`). */
export const RELATED_TRAINING_FILES = TRAINING_FILES.slice(0, 1);

/** One line of a training file: a tool's id, the language, its requests. */
export interface TrainingLine {
  readonly id: string;
  readonly lang?: string;
  readonly requests: readonly string[];
  /** The file it came from (for error messages). */
  readonly file: string;
}

/** The lines of `files` that exist, in order (a missing file reads as empty). */
export function readTrainingLines(files: readonly string[] = TRAINING_FILES): TrainingLine[] {
  const lines: TrainingLine[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const { id, lang, requests } = JSON.parse(line) as { id: string; lang?: string; requests: string[] };
      lines.push({ id, ...(lang === undefined ? {} : { lang }), requests, file });
    }
  }
  return lines;
}
