"""Hacktrick on the panel: the board and its card picker (``board.js``, ``board.css``) and
Hacktrick's words in English and Japanese (seed 001's words: ``docs/glossary.md``)."""

from __future__ import annotations

from pathlib import Path

from web_panel.games import PanelGame

TEXTS = {
    # the board
    "deck": {"en": "Deck", "ja": "山札"},
    "row": {"en": "Card row", "ja": "カード列"},
    "face_up": {"en": "Data cards not used this round",
                "ja": "このラウンドで使用されないデータカード"},
    "magic_square": {"en": "The board (magic square)", "ja": "ゲームボード(魔法陣)"},
    "round_starter": {"en": "Starting player", "ja": "スタートプレイヤー"},
    "excellence_points": {"en": "Excellence points", "ja": "エクセレンスポイント"},
    "rounds_chart": {"en": "Excellence points, round by round",
                     "ja": "ラウンドごとのエクセレンスポイント"},
    "hand_size": {"en": "Cards in hand", "ja": "手札の枚数"},
    "announced_sum": {"en": "Announced hand sum", "ja": "公開された手札の数字の合計値"},
    "markers_left": {"en": "Cursor markers left", "ja": "手元のカーソルマーカー"},
    "captured": {"en": "Opponent's cursor markers taken", "ja": "手元の相手のカーソルマーカー"},
    "your_hand": {"en": "Your hand", "ja": "あなたの手札"},
    "markers_n": {"en": "{n}", "ja": "{n} 個"},
    "markers_with_x2": {"en": "{n} (the ×2 among them)", "ja": "{n} 個(x2 を含む)"},
    "points_of": {"en": "{name}: {points} of {target} excellence points",
                  "ja": "{name}:エクセレンスポイント {points} / {target}"},
    "round_result": {"en": "Round {round} won", "ja": "ラウンド {round} の結果"},
    "square_holds": {"en": "Square {square}: {markers}", "ja": "マス {square}:{markers}"},
    "cannot_play_rightmost": {"en": "equals the rightmost card of the row ({card})",
                              "ja": "カード列の右端 ({card}) と同じ"},
    "cannot_play_now": {"en": "cannot be played now", "ja": "今は出せない"},
    "rounds_won": {"en": "Rounds won", "ja": "勝ったラウンド"},
    "pick_card": {"en": "Pick a card, then how to play it.",
                  "ja": "カードを選び、出し方を選んでください。"},
    "pick_table_card": {"en": "Pick the card you lay from your hand on the table, then how to "
                              "play it.",
                        "ja": "テーブルの手札から出すカードを選び、出し方を選んでください。"},
    "verb_play": {"en": "Play", "ja": "出す"},
    "verb_lead": {"en": "Lead", "ja": "最初に出す"},
    "declare_play": {"en": "declare Play!", "ja": "プレイの宣言"},
    "declare_guard": {"en": "declare Guard!", "ja": "ガードの宣言"},
    "declared_play": {"en": "{name} declared Play!", "ja": "{name} がプレイの宣言"},
    "declared_guard": {"en": "{name} declared Guard!", "ja": "{name} がガードの宣言"},
    "round_won": {"en": "Round {round}: {name} won, excellence points +{points}",
                  "ja": "ラウンド {round}: {name} がエクセレンスポイントを {points} 点獲得"},
    "hand_shown": {"en": "{name} showed their hand", "ja": "{name} が手札を公開"},
    "deck_rebuilt": {"en": "{name}'s draw emptied the deck: the row's {n} cards (all but the "
                           "rightmost) were shuffled into a new deck.",
                     "ja": "{name} のドローで山札が尽きたため、カード列の右端以外の {n} 枚を"
                           "シャッフルして新たな山札にしました。"},
    "action_draw": {"en": "Draw a card", "ja": "山札からカードをドロー"},
    "action_ask": {"en": "Ask the sum", "ja": "アスク・ザ・サム"},
    #: Between the squares of a round's win ("2, 5, 8").
    "list_separator": {"en": ", ", "ja": "・"},
    # the move log
    "move_lead": {"en": "{name} leads {card}.", "ja": "{name} が {card} を最初に出しました。"},
    "move_play": {"en": "{name} plays {card} on square {square}",
                  "ja": "{name} が {card} を出し、マス {square} にカーソルマーカーを置きました"},
    "move_draw": {"en": "{name} draws a card", "ja": "{name} が山札からカードをドローしました"},
    "move_ask": {"en": "{name} asks the sum.", "ja": "{name} がアスク・ザ・サムを行いました。"},
    "move_x2": {"en": ", ×2", "ja": "(x2)"},
    "move_declares_play": {"en": ", declares Play!", "ja": "、プレイの宣言"},
    "move_declares_guard": {"en": ", declares Guard!", "ja": "、ガードの宣言"},
    "move_end": {"en": ".", "ja": "。"},
    "rules_help": {
        "en": "Each turn, play a data card from your hand: it may not equal the rightmost card "
              "of the card row. Your cursor marker goes on the square of the two cards' sum "
              "(the opponent's 1 or 2 markers there are captured into your supply).\n"
              "Or draw a card from the deck instead. Before either, you may Ask the sum "
              "(discard a captured marker; the opponent says their hand sum).\n"
              "After playing you may declare Play! (the opponent must play a card) or Guard! "
              "(the opponent may not declare Play!).\n"
              "A round is won with three of your markers on one square, or one on each square "
              "of a line adding up to 15; the ×2 marker doubles the excellence points. The "
              "first to the target wins.",
        "ja": "自分のターンに手札からデータカードを1枚出します。カード列の右端と同じ数字は"
              "出せません。2枚の合計のマスにカーソルマーカーを置きます(相手のマーカーが1つか2つ"
              "あれば自分の手元に取ります)。\n"
              "または山札からカードをドローします。その前にアスク・ザ・サム(取ったマーカーを"
              "捨て、相手が手札の数字の合計値を答える)ができます。\n"
              "カードを出した後、プレイの宣言(相手はカードを出すしかない)またはガードの宣言"
              "(相手はプレイの宣言ができない)ができます。\n"
              "同じマスに自分のマーカー3つ、または足して15になるマスに1つずつでラウンドの勝ち。"
              "x2 のマーカーでエクセレンスポイントが2倍。目標点を先取したプレイヤーの勝ちです。"},
    # how a round ends (rules.hacktrick.endings.RoundEnd), after "round_won"
    "round_end.three_on_a_square": {
        "en": "three of their cursor markers on square {squares}",
        "ja": "{squares} のマスに同色のカーソルマーカーが3つ"},
    "round_end.line": {
        "en": "a cursor marker on each of the squares {squares}, which add up to 15",
        "ja": "足して15になる {squares} のマスに1つずつ同色のカーソルマーカー"},
    "round_end.out_of_markers": {
        "en": "the opponent ran out of cursor markers",
        "ja": "相手の手元からカーソルマーカーが全て無くなった"},
    "round_end.no_move": {
        "en": "the opponent could take no turn",
        "ja": "相手がターンを実行できなかった"},
    # how a game ends (rules.hacktrick.endings.Reason)
    "reason.target_reached": {
        "en": "{winner} wins: the first to reach the target of excellence points ({target}), "
              "after round {rounds}.",
        "ja": "ラウンド {rounds} を終えて、{winner} がエクセレンスポイントを {target} 点先取し"
              "最終的な勝者となりました。"},
    # the options (the new-game form)
    "option.cards": {"en": "Data cards", "ja": "データカード"},
    "help.cards": {
        "en": "On the phones: the box shuffles and deals, and each phone holds its player's "
              "hand. On the table: play with a real deck; enter each card you lay and press "
              "draw — the box cannot see the hands, so hand sums and Ask the sum are spoken at "
              "the table.",
        "ja": "スマートフォン:本体がシャッフルして配り、手札は各プレイヤーのスマートフォンに表示。"
              "テーブル:実物のカードを使い、出したカードを入力してドローを押す。本体には手札が"
              "見えないため、手札の数字の合計値とアスク・ザ・サムはテーブルで口頭で伝える。"},
    "choice.cards.virtual": {"en": "on the phones (the box deals)",
                             "ja": "スマートフォン(本体が配る)"},
    "choice.cards.table": {"en": "a real deck on the table", "ja": "テーブルの実物のカード"},
    "option.target": {"en": "Excellence points to win", "ja": "勝利に必要なエクセレンスポイント"},
    "help.target": {
        "en": "The first player to reach this many excellence points wins the game. The rules "
              "say 5; any other number departs from the rules.",
        "ja": "この点数のエクセレンスポイントを先取したプレイヤーが最終的な勝者。"
              "ルールは5点で、それ以外はルールと異なる。"},
    "option.x2_marker": {"en": "×2 cursor markers", "ja": "x2 のカーソルマーカー"},
    "help.x2_marker": {
        "en": "One of each player's cursor markers is marked ×2: a round won with it among "
              "the three markers of the win, placed before the last one, scores 2 excellence "
              "points instead of 1. Off departs from the rules.",
        "ja": "各プレイヤーのカーソルマーカーのうち1個には x2 と描かれている。勝利条件を満たす"
              "3つのカーソルマーカーに、最後に置いたものではない x2 が含まれていれば、"
              "エクセレンスポイントを1点ではなく2点獲得する。オフはルールと異なる。"},
    "option.out_of_markers": {"en": "Out of cursor markers",
                              "ja": "手元のカーソルマーカーが無くなったとき"},
    "help.out_of_markers": {
        "en": "Who loses the round for running out of cursor markers: a player with none of "
              "their own colour left (they can no longer place one), or only a player with no "
              "markers at all in front of them, so that captured opponent markers keep them "
              "in the round. The rulebook does not say which; both are readings.",
        "ja": "手元からカーソルマーカーが無くなってラウンドの敗者となるのは誰か:自分の色の"
              "カーソルマーカーが無くなったプレイヤー(もう置けない)、または相手のカーソル"
              "マーカーも含めて手元が空になったプレイヤーのみ。ルールブックには記載がなく、"
              "どちらの解釈も可能。"},
    "choice.out_of_markers.own_colour": {
        "en": "no markers of their own colour left",
        "ja": "自分の色のカーソルマーカーが無くなったら負け"},
    "choice.out_of_markers.empty_supply": {
        "en": "nothing left in front of them, captured markers included",
        "ja": "相手のカーソルマーカーも含めて手元が空になったら負け"},
    "option.declare_after_draw": {"en": "Declare after drawing", "ja": "ドロー後の宣言"},
    "help.declare_after_draw": {
        "en": "Also allow Play! or Guard! after drawing a card. On departs from the rules, "
              "where declaring is the optional second step of playing a card.",
        "ja": "山札からカードをドローした後にも、プレイの宣言・ガードの宣言を認める。オンは"
              "ルールと異なる(ルールでは宣言はカードのプレイの任意の2つ目のステップ)。"},
    "option.ask_under_play": {"en": "Ask the sum under Play!",
                              "ja": "プレイの宣言を受けたときのアスク・ザ・サム"},
    "help.ask_under_play": {
        "en": "May a player under Play! still Ask the sum before playing a card? Off follows "
              "the rules: under Play! nothing but playing a card is allowed. On departs from "
              "the rules.",
        "ja": "プレイの宣言を受けたプレイヤーが、カードのプレイの前にアスク・ザ・サムを実行"
              "できるか。オフはルールどおり(カードのプレイ以外のアクションを実行できない)。"
              "オンはルールと異なる。"},
    "option.starter": {"en": "Starting player of the next round",
                       "ja": "次のラウンドのスタートプレイヤー"},
    "help.starter": {
        "en": "Who starts each new round: the players take turns, or the winner of the last "
              "round starts. The rules do not say.",
        "ja": "新たなラウンドを始めるのは誰か:交互に、または前のラウンドの勝者。"
              "ルールには記載がない。"},
    "choice.starter.alternate": {"en": "the players take turns", "ja": "交互"},
    "choice.starter.winner": {"en": "the winner of the last round", "ja": "前のラウンドの勝者"},
}

PANEL = PanelGame(id="hacktrick", folder=Path(__file__).parent, scripts=("board.js",),
                  styles=("board.css",), texts=TEXTS)
