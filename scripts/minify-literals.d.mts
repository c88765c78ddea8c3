import type { Plugin } from 'vite';

export function minifyCss(text: string): string;
export function minifyHtml(text: string): string;
export function minifyLiterals(code: string, filename: string): string | null;
export function minifyLiteralsPlugin(include?: RegExp): Plugin;
