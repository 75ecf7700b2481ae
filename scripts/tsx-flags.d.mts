export const TSX_FLAGS: string[];
