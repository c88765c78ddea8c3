import type { Plugin } from 'vite';

export function sri(bytes: string | Uint8Array): string;
export function languageFiles(dir: string): Promise<Record<string, string>>;
export function hashFolder(dir: string): Record<string, string>;
export function languagesAsData(options: { dir: string; load: RegExp }): Plugin;
