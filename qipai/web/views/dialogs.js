// @ts-check
// The deposit and buy-in dialogs: amounts checked here with translated messages (no browser
// bubbles in another language), then by the server, whose refusal is translated by its code.
import { useEffect, useRef, useState } from "../vendor/hooks.module.js";
import { html } from "../ui/html.js";
import { t } from "../i18n/index.js";
import { money } from "../ui/format.js";
import { ApiError, errorText } from "../api/errors.js";

/** @param {{ id: string, title: string, sub: string, presets: number[], initial: number, min: number, max: number | null,
 *            go: string, onOk: (n: number) => Promise<unknown> | unknown, onClose: () => void, field: string }} props */
function AmountDialog({ id, title, sub, presets, initial, min, max, go, onOk, onClose, field }) {
  const ref = useRef(/** @type {HTMLDialogElement | null} */ (null));
  const [value, setValue] = useState(String(initial));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open && d.showModal) d.showModal();
  }, []);
  const submit = async () => {
    const n = Number(value);
    // a fraction or a word is told what is wrong with it, not that it is too small
    if (String(value).trim() === "" || !Number.isFinite(n)) return setError(t("amount_not_number"));
    if (!Number.isInteger(n)) return setError(t("amount_whole", { down: money(Math.floor(n)), up: money(Math.ceil(n)) }));
    if (n < min) return setError(t("amount_min", { min: money(min) }));
    if (max !== null && n > max) return setError(t(`err_invalid_input.${field}`, { max: money(max) }));
    if (busy) return undefined;
    setBusy(true);
    try {
      await onOk(n);
    } catch (e) {
      setError(e instanceof ApiError ? errorText(e) : t("err_error"));
    } finally {
      setBusy(false);
    }
    return undefined;
  };
  return html`<dialog class="dialog" id=${id} ref=${ref} onClose=${onClose} onCancel=${onClose}>
    <form method="dialog" novalidate onSubmit=${(/** @type {Event} */ e) => { e.preventDefault(); submit(); }}>
      <h3>${title}</h3><p class="muted">${sub}</p>
      <div class="chips-row">${presets.map((p) => html`<button type="button" key=${p} class="chip-btn" data-amount=${p} onClick=${() => { setValue(String(p)); setError(null); }}>${money(p)}</button>`)}</div>
      <label><span>${t("amount")}</span><input type="number" inputmode="numeric" value=${value} min=${min} max=${max ?? undefined}
        onInput=${(/** @type {any} */ e) => { setValue(e.currentTarget.value); setError(null); }} /></label>
      <p class="error-text" role="alert">${error || ""}</p>
      <div class="row"><button type="submit" class="btn gold go" id=${`${id.replace("dlg-", "btn-")}-go`} disabled=${busy}>${go}</button>
        <button type="button" class="btn ghost" onClick=${onClose}>${t("cancel")}</button></div>
    </form>
  </dialog>`;
}

/** Demo deposits are at most this much at a time (the server's limit; it refuses more). */
export const MAX_DEPOSIT = 1_000_000;

/** @param {{ actions: any }} props */
export function DepositDialog({ actions }) {
  return html`<${AmountDialog} id="dlg-deposit" title=${t("deposit")} sub=${t("deposit_sub")} presets=${[1000, 10000, 50000, 100000]}
    initial=${10000} min=${1} max=${MAX_DEPOSIT} go=${t("deposit")} field="amount" onOk=${actions.deposit} onClose=${actions.closeDialog} />`;
}

/** @param {{ s: any, actions: any }} props */
export function BuyInDialog({ s, actions }) {
  const st = s.state;
  const info = st && s.tableInfo[st.table.id];
  const terms = (info && (info.terms || info)) || {};
  const g = st ? s.games[st.table.game] : null;
  const min = Number(terms.min_buy_in ?? (g && g.min_buy_in) ?? 1);
  const max = terms.max_buy_in ?? (g && g.max_buy_in) ?? null;
  const wallet = (s.me && s.me.wallet) || 0;
  const want = Math.min(wallet, Number((g && g.default_buy_in) || min));
  return html`<${AmountDialog} id="dlg-buyin" title=${t("buy_in")} sub=${t("buyin_sub", { min: money(min), max: max === null ? "∞" : money(max) })}
    presets=${[min, Math.max(min, want)].filter((x, i, a) => a.indexOf(x) === i)} initial=${Math.max(min, want)} min=${min} max=${max === null ? null : Number(max)}
    go=${t("sit")} field="buy_in" onOk=${actions.sit} onClose=${actions.closeDialog} />`;
}
