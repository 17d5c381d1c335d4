// UI text in Chinese and English. `t(key)` returns the current language's text.
"use strict";

const I18N = {
  zh: {
    welcome: "欢迎来到棋牌室", welcome_sub: "博丁、抢庄牌九、德州扑克、换牌牛牛、打天九 —— 与朋友或机器人对战。",
    username: "用户名", password: "密码", login: "登录", signup: "注册", logout: "退出",
    deposit: "充值", deposit_sub: "演示筹码：选择金额。", amount: "金额", cancel: "取消",
    history: "牌局记录", lobby: "大厅", lobby_sub: "选择游戏：快速开始会为你找一张热闹的牌桌，空位由机器人补齐。",
    open_tables: "开放的牌桌", quick_start: "快速开始", new_table: "开新桌", join: "加入", watch: "观看",
    seats: "座位", humans: "玩家", bots: "机器人", playing: "进行中", waiting: "等待中",
    back_lobby: "← 大厅", fill_bots: "机器人补位", sit: "坐下", leave: "离座",
    balances: "余额", results: "结果", fairness: "公平性", log: "牌桌记录",
    buy_in: "买入", buyin_sub: "从钱包换筹码到牌桌；离座时自动返还。",
    wallet: "钱包", stack: "筹码", commitment: "承诺 (SHA-256)", seed: "种子", verified: "已验证 ✓",
    not_verified: "验证失败 ✗", seed_later: "整副牌发完后公开", round: "局", phase: "阶段",
    seed_hidden: "不向玩家公开",
    seed_operator_only: "打天九的种子不向玩家公开:有了种子就能推算出每一家的牌,包括扣下的垫牌,而垫牌对所有人永远保密。每局开始前公布承诺;运营方可用 qipai verify 核对种子与承诺并重放整局。",
    your_turn: "轮到你了", waiting_for: "等待", next_round: "下一局", seconds: "秒",
    win: "赢", lose: "输", tie: "和", net: "净输赢", banker: "庄", player: "闲",
    you: "你", empty: "空位", no_tables: "还没有牌桌 —— 点快速开始。", none_yet: "暂无",
    bet: "下注", bid: "抢庄", done: "确认", clear: "清除", swap: "换牌", keep_all: "不换",
    reveal: "开牌", play: "出牌", discard: "垫牌", stand: "停牌", fold: "弃牌", check: "过牌",
    no_bid: "不抢", multiple: "倍数", hint: "换牌建议", expected: "期望倍数",
    he_hint: "最优策略",
    tg_kind_civil: "文牌", tg_kind_military: "武牌", tg_kind_civil_pair: "文对", tg_kind_military_pair: "武对",
    tg_kind_mixed_pair: "文武", tg_kind_supreme: "至尊", tg_kind_three_civil: "三文", tg_kind_three_military: "三武",
    tg_kind_four: "四文武", ev_bet: "下注期望", ev_check: "过牌期望", per_ante: "(每单位底注)",
    road: "牌路", pool: "奖池", shoe: "牌靴", cards_left: "剩余牌",
    trick: "本墩", tricks: "已完成", dong: "栋", streak: "连庄", discards: "垫牌（暗）",
    breakdown: "结算明细", units: "单位", hand: "手牌", zun: "尊",
    connected: "已连接", reconnecting: "重新连接中…", spectating: "观战中",
    phase_betting: "下注", phase_finished: "已结束", phase_bid: "抢庄", phase_bet: "下注",
    phase_reveal: "开牌", phase_swap: "换牌", phase_play: "出牌", phase_preflop: "翻牌前",
    phase_flop: "翻牌", phase_turn: "转牌", phase_river: "河牌", phase_decision: "决策",
    select_tiles: "选择要出的牌", chip: "筹码", spot: "位置", pair: "对子",
    verify: "验证", start_in: "秒后开始下一局", dealer: "庄家", total: "合计",
    confirm: "确认", selected: "已选", tiles_left: "剩余牌", flop: "跟注翻牌", turn: "转牌下注", river: "河牌下注",
    event_other: "其他", last_round: "上一局", acting: "行动中", waiting_players: "等待玩家入座…",
    available: "可用", base: "底分", commission: "抽水", ante: "底注", bonus_bet: "奖励注", pool_bet: "奖池注",
    board: "公共牌", use_hint: "采用", received: "换到", round1_tiles: "第一局已出", last_trick: "结",
    last_trick_by: "结牌：", click_spot: "点击位置下注", road_win: "闲赢", road_lose: "闲输", road_ring: "两倍牌",
    road_empty: "本靴暂无记录", last_of_shoe: "本靴最后一局", double: "两倍",
    status_open: "可下注", status_bet: "已下注", status_waiting: "待决策", status_folded: "已弃牌", status_checked: "已过牌", status_in: "在局中",
    bet_ante: "底注", bet_bonus: "奖励", bet_pool: "奖池", bet_flop: "翻牌", bet_turn: "转牌", bet_river: "河牌",
    cat_high_card: "高牌", cat_pair: "一对", cat_two_pair: "两对", cat_three_of_a_kind: "三条", cat_straight: "顺子",
    cat_flush: "同花", cat_full_house: "葫芦", cat_four_of_a_kind: "四条", cat_straight_flush: "同花顺", cat_royal_flush: "皇家同花顺",
    betshort_ante: "底", betshort_bonus: "奖", betshort_pool: "池", betshort_flop: "翻", betshort_turn: "转", betshort_river: "河",
    tg_mine: "已得 {d} 栋 · 已打 {k} 墩",
    tag_pokdeng: "两张牌比点数，同花、对子加倍", tag_paigow: "抢庄掷骰，两张骨牌比大小", "tag_holdem-bonus": "对庄家德州，奖励注与累积奖池",
    tag_niuniu: "五张凑牛，可换牌，附换牌建议", tag_tiengow: "四人打天九，赢墩计栋", seats_n: "{n} 个座位", tables_n: "{n} 张牌桌在开",
    err_error: "操作未成功", err_wrong_phase: "已不在这个阶段，操作未生效", err_out_of_turn: "还没轮到你",
    err_illegal_action: "规则不允许这一步", err_invalid_input: "输入有误", err_invalid_message: "消息格式有误",
    err_unknown_table: "没有这张牌桌", err_auth_failed: "用户名或密码不对", err_auth_required: "请先登录",
    err_conflict: "用户名已被占用", err_game_in_progress: "本局进行中，请稍后", err_insufficient_funds: "余额不足",
    err_not_seated: "请先坐下", err_seat_taken: "座位已被占", err_table_error: "牌桌出错", err_unknown_round: "没有这一局",
    round_open: "进行中", round_settled: "已结算", round_voided: "已作废",
    pool_floor: "庄家保底", pool_stake: "每注",
    held: "占用", held_note: "已下的注加上本局可能还要加的注，都从筹码里预留",
    lang_name: "中文", round_over: "本局结束", shoe_round: "本靴第{n}局",
  },
  en: {
    welcome: "Welcome to the card room", welcome_sub: "Pok Deng, Pai Gow, Hold'em Bonus, Niu Niu and Tien Gow — against friends or bots.",
    username: "Username", password: "Password", login: "Sign in", signup: "Create account", logout: "Sign out",
    deposit: "Deposit", deposit_sub: "Demo money: choose an amount.", amount: "Amount", cancel: "Cancel",
    history: "History", lobby: "Lobby", lobby_sub: "Pick a game: quick start seats you at a lively table and fills empty seats with bots.",
    open_tables: "Open tables", quick_start: "Quick start", new_table: "New table", join: "Join", watch: "Watch",
    seats: "Seats", humans: "players", bots: "bots", playing: "playing", waiting: "waiting",
    back_lobby: "← Lobby", fill_bots: "Fill seats with bots", sit: "Sit down", leave: "Stand up",
    balances: "Balances", results: "Results", fairness: "Fairness", log: "Table log",
    buy_in: "Buy-in", buyin_sub: "Chips from your wallet to the table; they return when you stand up.",
    wallet: "Wallet", stack: "Stack", commitment: "Commitment (SHA-256)", seed: "Seed", verified: "verified ✓",
    not_verified: "does not match ✗", seed_later: "revealed when the deal ends", round: "Round", phase: "Phase",
    seed_hidden: "not shown to players",
    seed_operator_only: "Tien Gow seeds are never shown to players: a seed would let anyone recompute every hand, including the face-down discards, which stay hidden from everyone forever. The commitment is shown before each game; the operator checks seed against commitment and replays the game with qipai verify.",
    your_turn: "Your turn", waiting_for: "Waiting for", next_round: "Next round", seconds: "s",
    win: "win", lose: "lose", tie: "tie", net: "Net", banker: "Banker", player: "Player",
    you: "you", empty: "empty", no_tables: "No tables yet — press Quick start.", none_yet: "none yet",
    bet: "Bet", bid: "Bid", done: "Done", clear: "Clear", swap: "Swap", keep_all: "Keep all",
    reveal: "Reveal", play: "Play", discard: "Discard", stand: "Stand", fold: "Fold", check: "Check",
    no_bid: "No bid", multiple: "Multiple", hint: "Swap advisor", expected: "expected multiple",
    he_hint: "Optimal play",
    tg_kind_civil: "civil single", tg_kind_military: "military single", tg_kind_civil_pair: "civil pair",
    tg_kind_military_pair: "military pair", tg_kind_mixed_pair: "civil-military pair", tg_kind_supreme: "supreme",
    tg_kind_three_civil: "three civil", tg_kind_three_military: "three military", tg_kind_four: "four civil-military", ev_bet: "EV bet", ev_check: "EV check", per_ante: "(per unit ante)",
    road: "Road", pool: "Jackpot pool", shoe: "Shoe", cards_left: "cards left",
    trick: "Trick", tricks: "Tricks", dong: "dong", streak: "streak", discards: "discards (face down)",
    breakdown: "Scoring", units: "units", hand: "Hand", zun: "Zun",
    connected: "connected", reconnecting: "reconnecting…", spectating: "spectating",
    phase_betting: "betting", phase_finished: "finished", phase_bid: "bid for banker", phase_bet: "bet",
    phase_reveal: "reveal", phase_swap: "swap", phase_play: "play", phase_preflop: "pre-flop",
    phase_flop: "flop", phase_turn: "turn", phase_river: "river", phase_decision: "decision",
    select_tiles: "Select tiles to play", chip: "Chip", spot: "Spot", pair: "Pair",
    verify: "Verify", start_in: "s to the next round", dealer: "Dealer", total: "Total",
    confirm: "Confirm", selected: "selected", tiles_left: "tiles left", flop: "Flop bet", turn: "Turn bet", river: "River bet",
    event_other: "other", last_round: "Last round", acting: "to act", waiting_players: "Waiting for players…",
    available: "available", base: "base", commission: "commission", ante: "Ante", bonus_bet: "Bonus bet", pool_bet: "Jackpot bet",
    board: "Board", use_hint: "Use", received: "received", round1_tiles: "Round 1 tiles", last_trick: "last trick",
    last_trick_by: "last trick:", click_spot: "click a spot to bet", road_win: "player won", road_lose: "player lost", road_ring: "double hand",
    road_empty: "no rounds in this shoe yet", last_of_shoe: "last round of the shoe", double: "2×",
    status_open: "open", status_bet: "bet placed", status_waiting: "deciding", status_folded: "folded", status_checked: "checked", status_in: "in play",
    bet_ante: "Ante", bet_bonus: "Bonus", bet_pool: "Jackpot", bet_flop: "Flop", bet_turn: "Turn", bet_river: "River",
    cat_high_card: "High card", cat_pair: "Pair", cat_two_pair: "Two pair", cat_three_of_a_kind: "Three of a kind", cat_straight: "Straight",
    cat_flush: "Flush", cat_full_house: "Full house", cat_four_of_a_kind: "Four of a kind", cat_straight_flush: "Straight flush", cat_royal_flush: "Royal flush",
    betshort_ante: "A", betshort_bonus: "B", betshort_pool: "J", betshort_flop: "F", betshort_turn: "T", betshort_river: "R",
    tg_mine: "{d} dong won · {k} tricks played",
    tag_pokdeng: "Two-card points against the dealer; suits and pairs pay double", tag_paigow: "Bid for the bank; two dominoes against the banker's", "tag_holdem-bonus": "Hold'em against the dealer, with a bonus bet and a jackpot",
    tag_niuniu: "Make a niu from five cards; swap, with an advisor's hint", tag_tiengow: "Four players, 32 dominoes: win tricks, count dong", seats_n: "{n} seats", tables_n: "{n} tables open",
    err_error: "That did not work", err_wrong_phase: "Not in that phase any more; nothing changed", err_out_of_turn: "Not your turn",
    err_illegal_action: "The rules do not allow that", err_invalid_input: "Invalid input", err_invalid_message: "Malformed message",
    err_unknown_table: "No such table", err_auth_failed: "Wrong username or password", err_auth_required: "Sign in first",
    err_conflict: "That name is taken", err_game_in_progress: "A round is in progress; try again after it", err_insufficient_funds: "Not enough money",
    err_not_seated: "Sit down first", err_seat_taken: "That seat is taken", err_table_error: "Table error", err_unknown_round: "No such round",
    round_open: "in progress", round_settled: "settled", round_voided: "voided",
    pool_floor: "house floor", pool_stake: "stake",
    held: "Held", held_note: "your bets plus what this round may still ask for, set aside from your stack",
    lang_name: "English", round_over: "Round over", shoe_round: "round {n} of the shoe",
  },
};

let LANG = localStorage.getItem("qipai.lang") || "zh";

// Keys asked for but missing in the current language (the browser tests assert it stays empty).
const MISSING_I18N = new Set();

function t(key) {
  const text = I18N[LANG] && I18N[LANG][key];
  if (text) return text;
  MISSING_I18N.add(`${LANG}:${key}`);
  return I18N.en[key] || key;
}

function setLang(lang) {
  LANG = lang;
  localStorage.setItem("qipai.lang", lang);
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  const b = document.getElementById("btn-lang");
  if (b) b.textContent = lang === "zh" ? "EN" : "中文";
  const note = document.getElementById("toast");  // a note raised in the other language goes
  if (note) note.hidden = true;
}

function gameTitle(info) {
  if (!info) return "";
  return LANG === "zh" ? `${info.zh} · ${info.en}` : `${info.en} · ${info.zh}`;
}
