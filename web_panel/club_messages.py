"""The club pages' words, in English and Japanese (merged into
:data:`web_panel.messages.MESSAGES`)."""

from __future__ import annotations

CLUB_MESSAGES: dict[str, dict[str, str]] = {
    "nav_league": {"en": "League", "ja": "リーグ"},
    "club_title": {"en": "Club league", "ja": "クラブリーグ"},
    "club_live": {"en": "Live tables", "ja": "プレイ中のテーブル"},
    "club_no_tables": {"en": "No table is playing right now.",
                       "ja": "いまプレイ中のテーブルはありません。"},
    "club_box_offline": {"en": "offline", "ja": "オフライン"},
    "club_box_online": {"en": "online", "ja": "オンライン"},
    "club_watch": {"en": "Watch", "ja": "観戦"},
    "club_tables": {"en": "League tables", "ja": "ゲーム別リーグ表"},
    "club_no_results": {"en": "No game has reached the league yet.",
                        "ja": "リーグに届いたゲームはまだありません。"},
    "club_recent": {"en": "Latest games", "ja": "最近のゲーム"},
    "club_place": {"en": "#", "ja": "順位"},
    "club_player": {"en": "Player", "ja": "プレイヤー"},
    "club_rating": {"en": "Rating", "ja": "レーティング"},
    "club_played": {"en": "Played", "ja": "対戦"},
    "club_won": {"en": "Won", "ja": "勝ち"},
    "club_guest": {"en": "guest", "ja": "ゲスト"},
    "club_bot": {"en": "bot", "ja": "ボット"},
    "club_rating_note": {
        "en": "Ratings by openskill (Plackett–Luce): skill minus three times its uncertainty, so "
              "a new player starts at 0 and climbs as games show their skill.",
        "ja": "レーティングは openskill(Plackett–Luce)によるもので、実力から不確かさの3倍を"
              "引いた値です。新しいプレイヤーは 0 から始まり、対戦を重ねると上がります。"},
    "club_export": {"en": "Download CSV", "ja": "CSV をダウンロード"},
    "club_history": {"en": "Games across the club", "ja": "クラブでの対戦履歴"},
    "club_box": {"en": "Box {box}", "ja": "ボックス {box}"},
    "club_place_n": {"en": "place {n}", "ja": "{n} 位"},
    "club_won_game": {"en": "won", "ja": "勝利"},
    "club_abandoned": {"en": "abandoned", "ja": "中止"},
    "club_no_analysis": {"en": "Its box sent no analysis of this game.",
                         "ja": "このゲームの分析はボックスから届いていません。"},
    "club_rating_change": {"en": "rating {before} → {after}",
                           "ja": "レーティング {before} → {after}"},
    "club_no_player": {"en": "There is no such player in the league.",
                       "ja": "そのプレイヤーはリーグにいません。"},
    "club_me": {"en": "My club profile", "ja": "クラブのプロフィール"},
    "club_me_intro": {
        "en": "A club profile follows you from table to table: give your club code at any box "
              "when you take a seat, and the game counts for you in the league.",
        "ja": "クラブのプロフィールがあれば、どのテーブルでも同じあなたとして記録されます。"
              "席に着くときにクラブコードを入力すると、そのゲームがリーグであなたの成績になります。"},
    "club_new_profile": {"en": "Make my profile", "ja": "プロフィールを作成"},
    "club_your_name": {"en": "Your name in the league", "ja": "リーグでの名前"},
    "club_have_code": {"en": "I have a club code", "ja": "クラブコードを持っています"},
    "club_claim": {"en": "Use this phone", "ja": "この端末で使う"},
    "club_code": {"en": "Club code", "ja": "クラブコード"},
    "club_your_code": {"en": "Your club code: {code}", "ja": "あなたのクラブコード: {code}"},
    "club_code_note": {
        "en": "Keep it: it is shown only now. Give it at any box when you take a seat.",
        "ja": "表示されるのは今だけです。控えておき、席に着くときに入力してください。"},
    "club_renew": {"en": "Get a new code (the old one stops)",
                   "ja": "新しいコードを発行(古いコードは無効になります)"},
    "club_signed_in": {"en": "This phone plays as {name}.",
                       "ja": "この端末は {name} として登録されています。"},
    "club_my_games": {"en": "My games", "ja": "自分の対戦履歴"},
    "club_seat_title": {"en": "Club code", "ja": "クラブコード"},
    "club_seat_intro": {"en": "Give your club code so this game counts for you in the league.",
                        "ja": "クラブコードを入力すると、このゲームがリーグで"
                              "あなたの成績になります。"},
    "club_seat_save": {"en": "Use my code", "ja": "コードを使う"},
    "club_seat_saved": {"en": "Noted: the club hub checks it when the game ends.",
                        "ja": "受け付けました。ゲーム終了時にクラブのハブが確認します。"},
    "club_status": {"en": "Club: box {box}, {state}; {waiting} results waiting",
                    "ja": "クラブ: ボックス {box}、{state}。送信待ち {waiting} 件"},
    "club_broker_down": {
        "en": "Club broker down since {time}: the boxes keep their results and send them when "
              "it is back.",
        "ja": "{time} からクラブのブローカーが停止しています。各ボックスは結果を保存しておき、"
              "復旧後に送信します。"},
    "club_turn": {"en": "turn {turn}", "ja": "{turn} ターン目"},
    "club_to_act": {"en": "to play: {names}", "ja": "手番: {names}"},
}
