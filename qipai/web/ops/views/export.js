// @ts-check
// Exports the console offers (CSV and JSON of reports and round lists): the file is fetched
// with the operator's session and saved under a name, so no token ever goes into a link.
import { api } from "../api.js";

/** @param {Blob} blob @param {string} name */
function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The server's CSV of `path` (which asks for format=csv). @param {string} path @param {string} name */
export async function downloadCsv(path, name) {
  save(await api.blob(path), name);
}

/** JSON the console already read, as a file. @param {any} data @param {string} name */
export function downloadJson(data, name) {
  save(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }), name);
}
