"""What the OLED says, in English and Japanese: a table of words per module, looked up by key.

Each table maps a key to its text in every language of :data:`LANGUAGES`, with ``{name}``-style
blanks filled in by :func:`say`. The box's own words (screens every game shares) are
:data:`WORDS`; each game keeps its own beside its screens (``firmware_host/games/<game>/words.py``,
registered as ``BoxGame.words``). Japanese uses the seeds' own terms (docs/glossary.md).
``tests/firmware_host/ui/test_japanese.py`` draws every text of every table in Japanese and
checks it fits the OLED with no missing glyph.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from firmware_host.screens.text import LANGUAGES, speaks

Words = Mapping[str, Mapping[str, str]]


def say(words: Words, key: str, lang: str, /, **values: Any) -> str:
    """The text of ``key`` in ``lang`` (English when the OLED cannot draw ``lang``), with its
    blanks filled from ``values``."""
    entry = words[key]
    return entry[speaks(lang)].format(**values)


def check_words(words: Words) -> list[str]:
    """Problems of a table: a key without every language, or blanks that differ between
    languages (empty when the table is sound)."""
    problems = []
    for key, entry in words.items():
        missing = [lang for lang in LANGUAGES if not entry.get(lang)]
        if missing:
            problems.append(f"{key}: no {', '.join(missing)}")
            continue
        blanks = {lang: {f for _, f, _, _ in string.Formatter().parse(entry[lang]) if f}
                  for lang in LANGUAGES}
        if len({frozenset(b) for b in blanks.values()}) > 1:
            problems.append(f"{key}: blanks differ {blanks}")
    return problems


#: The box's own words: screens and refusals every game shares.
WORDS: Words = {
    # the start screen
    "box": {"en": "Tabletop", "ja": "テーブルトップ"},
    "join": {"en": "Join:", "ja": "参加:"},
    "pin": {"en": "PIN {pin}", "ja": "PIN {pin}"},
    "damage.title": {"en": "Journal damaged", "ja": "記録ファイル破損"},
    "damage.offer": {"en": "Restore the backup of {taken} ({games} games): {address}",
                     "ja": "{taken}のバックアップ({games}ゲーム)を復元: {address}"},
    "damage.no_backup": {"en": "No backup is sound. Start an empty journal: {address}",
                         "ja": "正常なバックアップなし。空の記録で再開: {address}"},
    "no_die": {"en": "no die", "ja": "ダイスなし"},
    "die_version": {"en": "die v{version}", "ja": "ダイス v{version}"},
    # refusals and notices
    "not_allowed": {"en": "refused", "ja": "できません"},
    "ok_more_back_fix": {"en": "OK more  Back: fix", "ja": "OK:続き Back:直す"},
    "back_change": {"en": "Back: change it", "ja": "Back:やり直す"},
    "any_key": {"en": "any key: go on", "ja": "キーを押して続ける"},
    "notice": {"en": "Note", "ja": "お知らせ"},
    "error": {"en": "Error", "ja": "エラー"},
    # passing the pad
    "pass_pad_to": {"en": "Pass the pad to", "ja": "パッドを渡す相手:"},
    "ok_when_ready": {"en": "OK when ready", "ja": "準備ができたらOK"},
    # the end of a game
    "game_over": {"en": "Game over", "ja": "ゲーム終了"},
    "ok_results": {"en": "OK: results", "ja": "OK:結果"},
    "winner": {"en": "Winner: {names}", "ja": "勝者: {names}"},
    "winners": {"en": "Winners: {names}", "ja": "勝者: {names}"},
    "draw": {"en": "A draw: no winner", "ja": "引き分け(勝者なし)"},
    "ok_next_game": {"en": "OK: next game", "ja": "OK:次のゲーム"},
    "ok_menu": {"en": "OK: choose a game", "ja": "OK:ゲームを選ぶ"},
    "ok_start": {"en": "OK: start screen", "ja": "OK:最初の画面"},
    "next_pass": {"en": "Pass the pad to {name}", "ja": "パッドを{name}に渡す"},
    "hints_used": {"en": "hints: {entries}", "ja": "ヒント: {entries}"},
    # the post-game analysis, one line of the results (screens/results.py, analysis_line)
    "analysis.pending": {"en": "Analysing...", "ja": "分析中…"},
    "analysis.certain": {"en": "Certain on turn {turn}", "ja": "ターン{turn}で確定"},
    "analysis.uncertain": {"en": "Uncertain: {n} left", "ja": "未確定:残り{n}通り"},
    "analysis.turning": {"en": "Turning point: #{n}", "ja": "転機:{n}手目"},
    "analysis.no_turning": {"en": "No turning point", "ja": "転機なし"},
    "over_press_ok": {"en": "the game is over: press OK to go on",
                      "ja": "ゲームは終了しました。OKで先へ進みます"},
    # the games menu (hold Back)
    "menu_title": {"en": "Games", "ja": "ゲーム選択"},
    "menu_hint": {"en": "2/8 move OK pick", "ja": "2/8移動 OK決定"},
    "menu_none": {"en": "No game is being played. Start one on a phone.",
                  "ja": "進行中のゲームはありません。スマホで始めてください。"},
    "menu_choose": {"en": "Several games are being played: choose the pad's game with OK.",
                    "ja": "複数のゲームが進行中です。パッドのゲームをOKで選んでください。"},
    "menu_keys": {"en": "in the games menu 2 and 8 move, OK picks the game, Back closes",
                  "ja": "ゲーム選択では2と8で移動、OKで決定、Backで閉じます"},
    "menu_pick_first": {"en": "choose a game first: 2 and 8 move, OK picks it",
                        "ja": "先にゲームを選んでください(2と8で移動、OKで決定)"},
    "menu_dice": {"en": " Pair dice...", "ja": " サイコロをペアリング"},
    # pairing smart dice on the OLED (docs/dice.md)
    "dice_title": {"en": "Dice", "ja": "サイコロ"},
    "dice_scanning": {"en": "Listening for smart dice...", "ja": "サイコロを探しています…"},
    "dice_none": {"en": "No smart die nearby. Wake the dice (roll them), then 5: scan again.",
                  "ja": "近くにサイコロがありません。サイコロを振って起こしてから5で再検索。"},
    "dice_hint": {"en": "OK owner 5 scan", "ja": "OK持ち主 5検索"},
    "dice_keys": {"en": "2 and 8 move, OK gives the die to the next seat, 5 scans again, Back "
                        "closes",
                  "ja": "2と8で移動、OKで次の持ち主へ、5で再検索、Backで閉じます"},
    "dice_unpaired": {"en": "-", "ja": "なし"},
    "dice_table": {"en": "table", "ja": "共用"},
    "game_row": {"en": "{game} {id}", "ja": "{game} {id}"},
    "seat_row": {"en": " {name}: {who}", "ja": " {name}:{who}"},
    "seat_person": {"en": "person", "ja": "人"},
    "seat_box": {"en": "box {level}", "ja": "本体 {level}"},
    "level_random": {"en": "random", "ja": "ランダム"},
    "level_easy": {"en": "easy", "ja": "やさしい"},
    "level_hard": {"en": "hard", "ja": "むずかしい"},
    # inputs the box cannot use
    "no_game": {"en": "no game is being played: start one on a phone (scan the code)",
                "ja": "進行中のゲームはありません。スマホで始めてください(コードを読み取る)"},
    "not_pad_game": {"en": "that move was for {game} {id}, but the pad is on {pad} now: "
                           "nothing was entered",
                     "ja": "その手は{game} {id}のものですが、パッドは今{pad}を操作中です。"
                           "入力されていません"},
    "no_key_here": {"en": "{key} does nothing here", "ja": "ここでは{key}は使えません"},
    # smart dice (docs/dice.md)
    "seat_die": {"en": "{name}'s die", "ja": "{name}のサイコロ"},
    "table_die": {"en": "the table's die", "ja": "共用のサイコロ"},
    "die_battery_low": {"en": "{die} ({name}): battery {percent}%, charge it soon",
                        "ja": "{die}({name}):電池残量{percent}%。早めに充電してください"},
    "die_away": {"en": "{die} ({name}) is out of reach: it reconnects by itself; meanwhile "
                       "roll another way",
                 "ja": "{die}({name})との接続が切れました。自動で再接続します。"
                       "それまでは別の方法で振ってください"},
    "no_roll_due": {"en": "no die roll is due now: the {value} was not used",
                    "ja": "今はダイスを振る番ではありません。{value}は使われませんでした"},
    "wait_others": {"en": "it is not the pad's turn: waiting for the phones",
                    "ja": "パッドの番ではありません。スマホの入力を待っています"},
    "busy": {"en": "the box is busy: press again", "ja": "処理中です。もう一度押してください"},
    "key.dot": {"en": "dot {value}", "ja": "ドット{value}"},
    "key.ok": {"en": "OK", "ja": "OK"},
    "key.back": {"en": "Back", "ja": "Back"},
    "key.die": {"en": "a die roll of {value}", "ja": "ダイスの目{value}"},
    "key.digit": {"en": "key {value}", "ja": "キー{value}"},
    "key.letter": {"en": "key {key}", "ja": "キー{key}"},
    "key.menu": {"en": "the menu", "ja": "メニュー"},
}


def key_name(kind: str, value: int | None, key: str | None, lang: str) -> str:
    """An input in words: ``dot 5``, ``OK``, ``a die roll of 4``…"""
    return say(WORDS, f"key.{kind}", lang, value=value if value is not None else "",
               key=key or "")
