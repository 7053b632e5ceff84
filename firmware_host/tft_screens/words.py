"""The TFT's words, in English and Japanese (the OLED's language: the host's choice)."""

from __future__ import annotations

from firmware_host.screens.words import Words

WORDS: Words = {
    "turn_of": {"en": "{name} to play", "ja": "{name}の番"},
    "roll_for": {"en": "roll for {name}", "ja": "{name}のダイス"},
    "several": {"en": "{count} players to play", "ja": "{count}人が入力中"},
    "waiting": {"en": "waiting", "ja": "待機中"},
    "game_over": {"en": "Game over", "ja": "ゲーム終了"},
    "winner": {"en": "{name} wins", "ja": "{name}の勝ち"},
    "draw": {"en": "A draw", "ja": "引き分け"},
    "codes_left": {"en": "codes left", "ja": "残りコード"},
    "turn": {"en": "turn {n}", "ja": "ターン{n}"},
    "round": {"en": "round {n}", "ja": "ラウンド{n}"},
    "lock_drawing": {"en": "the Lock draws the secret", "ja": "ロックが暗号を決めています"},
    "no_clues": {"en": "no clues yet", "ja": "ヒントはまだありません"},
    "active_face": {"en": "face {face}", "ja": "面 {face}"},
    "markers_left": {"en": "markers left", "ja": "残りマーカー"},
    "start_title": {"en": "Tabletop Companion", "ja": "テーブルトップ"},
    "start_join": {"en": "Scan to join", "ja": "読み取って参加"},
}
