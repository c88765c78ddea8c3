export const UNMAPPED: string;
export interface SourceMapLike {
  mappings: string;
  sources: readonly string[];
}
export function piecesBySource(
  code: string,
  map: SourceMapLike,
): { source: string; text: string }[];
