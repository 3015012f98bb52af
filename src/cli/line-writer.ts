/** Where a terminal command writes its lines (stdout for the user, or a test's array). */
export type LineWriter = (line: string) => void;
