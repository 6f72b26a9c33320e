<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>AnalysisPanel</name>
    <message>
        <source>Engine idle</source>
        <extracomment>The panel redraws at most this often (ms), however fast reports arrive. Rows kept in the history (the oldest go first).</extracomment>
        <translation>エンジン停止中</translation>
    </message>
    <message>
        <source>lines: </source>
        <translation>候補手数: </translation>
    </message>
    <message>
        <source>How many best lines the engine shows (multi-PV)</source>
        <translation>エンジンが示す最善手の数（マルチPV）</translation>
    </message>
    <message>
        <source>Analyse</source>
        <translation>検討</translation>
    </message>
    <message>
        <source>Start or stop the engine (Space)</source>
        <translation>エンジンの開始／停止（スペース）</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>読み筋</translation>
    </message>
    <message>
        <source>By depth</source>
        <translation>深さ別</translation>
    </message>
    <message>
        <source>The best lines, each updated in place as the engine goes deeper</source>
        <translation>最善の読み筋（エンジンが深く読むたびにその場で更新）</translation>
    </message>
    <message>
        <source>Every report of the engine, the deepest first</source>
        <translation>エンジンの全出力（深いものから）</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>評価値</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>候補</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深さ</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>局面数</translation>
    </message>
    <message>
        <source>N/s</source>
        <translation>局面/秒</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>時間</translation>
    </message>
    <message>
        <source>Principal variation</source>
        <translation>読み筋</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
</context>
<context>
    <name>ClockEdit</name>
    <message>
        <source>No clock</source>
        <translation>持ち時間なし</translation>
    </message>
    <message>
        <source>Base + increment</source>
        <translation>持ち時間＋加算（フィッシャー）</translation>
    </message>
    <message>
        <source>Base + byoyomi</source>
        <translation>持ち時間＋秒読み</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Byoyomi periods</source>
        <translation>秒読みの回数</translation>
    </message>
    <message>
        <source>Increment per move</source>
        <translation>1手ごとの加算</translation>
    </message>
    <message>
        <source>Byoyomi per move</source>
        <translation>1手ごとの秒読み</translation>
    </message>
</context>
<context>
    <name>EngineDialogsMixin</name>
    <message>
        <source>Analysis engine: {0}</source>
        <translation>検討エンジン: {0}</translation>
    </message>
</context>
<context>
    <name>EngineManagerDialog</name>
    <message>
        <source>Engine manager</source>
        <extracomment>The games it is offered for (empty: its protocol&apos;s: USI shogi, Gomocup every gomoku-like game).</extracomment>
        <translation>エンジン管理</translation>
    </message>
    <message>
        <source>USI (shogi)</source>
        <translation>USI（将棋）</translation>
    </message>
    <message>
        <source>Gomocup (gomoku)</source>
        <translation>Gomocup（五目並べ）</translation>
    </message>
    <message>
        <source>Program, with its arguments if it needs any</source>
        <translation>プログラム（必要なら引数も）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Options…</source>
        <translation>オプション…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>External engines (USI for shogi, Gomocup for gomoku):</source>
        <translation>外部エンジン（将棋は USI、五目並べは Gomocup）:</translation>
    </message>
    <message>
        <source>Add an engine:</source>
        <translation>エンジンを追加:</translation>
    </message>
    <message>
        <source>No external engine yet: add one below.</source>
        <translation>外部エンジンはまだありません。下で追加してください。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>Plays: {0}. By: {1}. Options: {2} ({3} changed: {4}).</source>
        <translation>対応: {0}。作者: {1}。オプション: {2}（変更 {3}: {4}）。</translation>
    </message>
    <message>
        <source>Choose the engine&apos;s program</source>
        <translation>エンジンのプログラムを選択</translation>
    </message>
    <message>
        <source>Cannot add {0}: {1}</source>
        <translation>{0} を追加できません: {1}</translation>
    </message>
</context>
<context>
    <name>EngineOptionsDialog</name>
    <message>
        <source>Options of {0}</source>
        <translation>{0} のオプション</translation>
    </message>
</context>
<context>
    <name>EngineSettingsDialog</name>
    <message>
        <source>Engine settings</source>
        <translation>エンジン設定</translation>
    </message>
    <message>
        <source>Engine manager…</source>
        <translation>エンジン管理…</translation>
    </message>
    <message>
        <source>The engine&apos;s options</source>
        <translation>エンジンのオプション</translation>
    </message>
    <message>
        <source>No limit of its own</source>
        <translation>独自の制限なし</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深さ</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>局面数</translation>
    </message>
    <message>
        <source>Milliseconds per move</source>
        <translation>1手あたりのミリ秒</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>探索</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>制限</translation>
    </message>
    <message>
        <source>Lines (multi-PV)</source>
        <translation>候補手数（マルチPV）</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>エンジン</translation>
    </message>
    <message>
        <source>Engine spec</source>
        <translation>エンジン指定</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（既定）</translation>
    </message>
    <message>
        <source>External {0} engine: {1}</source>
        <translation>外部 {0} エンジン: {1}</translation>
    </message>
    <message>
        <source>An engine spec that is not in the engine manager: its options are kept as written.</source>
        <translation>エンジン管理にないエンジン指定です。オプションは書かれたとおりに保たれます。</translation>
    </message>
</context>
<context>
    <name>EnginesMixin</name>
    <message>
        <source>Preparing the {0} engine</source>
        <translation>{0}のエンジンを準備中</translation>
    </message>
    <message>
        <source>the {0} engine</source>
        <translation>{0}のエンジン</translation>
    </message>
    <message>
        <source>Preparing {0}</source>
        <translation>準備中: {0}</translation>
    </message>
    <message>
        <source> ({0} of {1})</source>
        <translation>（{0}／{1}）</translation>
    </message>
    <message>
        <source>Engine problem: {0}</source>
        <translation>エンジンの問題: {0}</translation>
    </message>
    <message>
        <source>{0}: {1} is thinking</source>
        <translation>{0}: {1} が思考中</translation>
    </message>
    <message>
        <source>{0} opening: {1} is deciding</source>
        <translation>{0} オープニング: {1} が判断中</translation>
    </message>
    <message>
        <source>Analysing with {0}</source>
        <translation>{0} で検討中</translation>
    </message>
    <message>
        <source>the default engine</source>
        <translation>既定のエンジン</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>停止しました</translation>
    </message>
    <message>
        <source>Game over: {0}</source>
        <translation>終局: {0}</translation>
    </message>
    <message>
        <source>Engine idle</source>
        <translation>エンジン停止中</translation>
    </message>
    <message>
        <source>Computer is thinking</source>
        <translation>コンピュータ思考中</translation>
    </message>
    <message>
        <source>Analysing</source>
        <translation>検討中</translation>
    </message>
    <message>
        <source>Looking for a hint</source>
        <translation>ヒントを探しています</translation>
    </message>
    <message>
        <source>{0} opening: the computer answered</source>
        <translation>{0} オープニング: コンピュータが答えました</translation>
    </message>
    <message>
        <source>{0} played {1} ({2}, depth {3})</source>
        <translation>{0}は{1}を指しました（{2}、深さ {3}）</translation>
    </message>
    <message>
        <source>Hint: {0} ({1})</source>
        <translation>ヒント: {0}（{1}）</translation>
    </message>
    <message>
        <source>Analysis complete: {0} at depth {1}</source>
        <translation>検討完了: {0}（深さ {1}）</translation>
    </message>
    <message>
        <source>The engine failed: {0}</source>
        <translation>エンジンが失敗しました: {0}</translation>
    </message>
    <message>
        <source>The engine failed</source>
        <translation>エンジンが失敗しました</translation>
    </message>
    <message>
        <source>Analysis stopped</source>
        <translation>検討を停止しました</translation>
    </message>
</context>
<context>
    <name>EvalGraph</name>
    <message>
        <source>The engine&apos;s scores over the main line; click to go to that move</source>
        <extracomment>Scores (in the engines&apos; units, 100 = one pawn or one &quot;point&quot;) marked on the scale of a two-player graph.</extracomment>
        <translation>本譜に沿ったエンジンの評価値。クリックでその手へ移動</translation>
    </message>
    <message>
        <source>{0} better</source>
        <translation>{0}有利</translation>
    </message>
</context>
<context>
    <name>FilesMixin</name>
    <message>
        <source>No game has a file format to import</source>
        <translation>読み込める棋譜形式のあるゲームがありません</translation>
    </message>
    <message>
        <source>Preparing engines…</source>
        <translation>エンジンを準備中…</translation>
    </message>
</context>
<context>
    <name>LanguageMixin</name>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <source>The window will be in {0} when gamesuite is started again.</source>
        <translation>次回 gamesuite を起動すると、画面は{0}になります。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Analysis</source>
        <extracomment>The smallest window: at this size every board is whole and the docks keep their minimum sizes. The docks&apos; sizes at the default window size (the analysis panel&apos;s height, the right column&apos;s width).</extracomment>
        <translation>検討</translation>
    </message>
    <message>
        <source>Moves</source>
        <translation>棋譜</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>評価値グラフ</translation>
    </message>
    <message>
        <source>&amp;New game…</source>
        <translation>新規対局(&amp;N)…</translation>
    </message>
    <message>
        <source>Start a new game</source>
        <translation>新しい対局を始める</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a saved game</source>
        <translation>保存した対局を開く</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the game</source>
        <translation>対局を保存</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>名前を付けて保存(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the game to a new file</source>
        <translation>対局を新しいファイルに保存</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>棋譜の読み込み(&amp;I)…</translation>
    </message>
    <message>
        <source>Open a game in the game&apos;s own file format</source>
        <translation>ゲーム固有の形式（KIF、CSA など）の棋譜を開く</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>棋譜の書き出し(&amp;X)…</translation>
    </message>
    <message>
        <source>Save the line shown in the game&apos;s own file format</source>
        <translation>表示中の手順をゲーム固有の形式で保存</translation>
    </message>
    <message>
        <source>&amp;Export diagram…</source>
        <translation>局面図の書き出し(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the board as PNG or SVG</source>
        <translation>盤面を PNG または SVG で保存</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Take back</source>
        <translation>待った(&amp;T)</translation>
    </message>
    <message>
        <source>Take back your last move</source>
        <translation>最後の自分の手を戻す</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直し(&amp;R)</translation>
    </message>
    <message>
        <source>Replay the next move</source>
        <translation>次の手を再生</translation>
    </message>
    <message>
        <source>&amp;Copy position</source>
        <translation>局面をコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the position as text</source>
        <translation>局面を文字でコピー</translation>
    </message>
    <message>
        <source>&amp;Paste position</source>
        <translation>局面を貼り付け(&amp;P)</translation>
    </message>
    <message>
        <source>Set up a position from text</source>
        <translation>文字から局面を作る</translation>
    </message>
    <message>
        <source>Set &amp;up position</source>
        <translation>局面編集(&amp;U)</translation>
    </message>
    <message>
        <source>Edit the position</source>
        <translation>局面を編集</translation>
    </message>
    <message>
        <source>First move</source>
        <translation>開始局面</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>1手戻る</translation>
    </message>
    <message>
        <source>One move back</source>
        <translation>1手戻る</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>1手進む</translation>
    </message>
    <message>
        <source>One move forward</source>
        <translation>1手進む</translation>
    </message>
    <message>
        <source>Last move</source>
        <translation>最終局面</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>最初</translation>
    </message>
    <message>
        <source>End</source>
        <translation>最後</translation>
    </message>
    <message>
        <source>Start/stop &amp;engine</source>
        <translation>エンジン開始／停止(&amp;E)</translation>
    </message>
    <message>
        <source>Start or stop the engine</source>
        <translation>エンジンの開始／停止</translation>
    </message>
    <message>
        <source>&amp;Hint</source>
        <translation>ヒント(&amp;H)</translation>
    </message>
    <message>
        <source>Ask the engine for a move</source>
        <translation>エンジンに手を尋ねる</translation>
    </message>
    <message>
        <source>Engine &amp;settings…</source>
        <translation>エンジン設定(&amp;S)…</translation>
    </message>
    <message>
        <source>The analysis engine, its options, limits and lines</source>
        <translation>検討エンジンとそのオプション、制限、候補手数</translation>
    </message>
    <message>
        <source>Engine &amp;manager…</source>
        <translation>エンジン管理(&amp;M)…</translation>
    </message>
    <message>
        <source>Add external USI and Gomocup engines</source>
        <translation>外部の USI・Gomocup エンジンを追加</translation>
    </message>
    <message>
        <source>&amp;Flip board</source>
        <translation>盤面反転(&amp;F)</translation>
    </message>
    <message>
        <source>Turn the board around</source>
        <translation>盤を180度回す</translation>
    </message>
    <message>
        <source>&amp;Western piece letters</source>
        <translation>駒を英字で表示(&amp;W)</translation>
    </message>
    <message>
        <source>Shogi pieces with letters instead of kanji</source>
        <translation>将棋の駒を漢字ではなく英字で表示</translation>
    </message>
    <message>
        <source>&amp;Numbered stones</source>
        <translation>石に手数を表示(&amp;N)</translation>
    </message>
    <message>
        <source>Show on each stone the number of its move</source>
        <translation>各石にその手数を表示</translation>
    </message>
    <message>
        <source>S&amp;ounds</source>
        <translation>効果音(&amp;O)</translation>
    </message>
    <message>
        <source>A sound for each move, capture and the end of the game</source>
        <translation>指し手・駒取り・終局のたびに音を鳴らす</translation>
    </message>
    <message>
        <source>&amp;Japanese (▲７六歩)</source>
        <translation>日本式(&amp;J) (▲７六歩)</translation>
    </message>
    <message>
        <source>W&amp;estern (P-7f)</source>
        <translation>西洋式(&amp;E) (P-7f)</translation>
    </message>
    <message>
        <source>&amp;USI (7g7f)</source>
        <translation>USI 形式(&amp;U) (7g7f)</translation>
    </message>
    <message>
        <source>T&amp;ype a move</source>
        <translation>指し手を入力(&amp;Y)</translation>
    </message>
    <message>
        <source>Type a move (h8, 7g7f, ７六歩…) and press Enter</source>
        <translation>指し手（h8、7g7f、７六歩…）を入力して Enter</translation>
    </message>
    <message>
        <source>&amp;Play against the computer</source>
        <translation>コンピュータと対局(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Analyse</source>
        <translation>検討モード(&amp;A)</translation>
    </message>
    <message>
        <source>Engine follows every position</source>
        <translation>エンジンが各局面を検討する</translation>
    </message>
    <message>
        <source>&amp;Light theme</source>
        <translation>ライトテーマ(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>ダークテーマ(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Game</source>
        <translation>対局(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Moves</source>
        <translation>棋譜(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>エンジン(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Move notation</source>
        <translation>棋譜の表記(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;How to use</source>
        <translation>使い方(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Rules of the game</source>
        <translation>ゲームのルール(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>gamesuite について(&amp;A)</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新規</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>開く</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Take back</source>
        <translation>待った</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>ヒント</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>エンジン</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>対局</translation>
    </message>
    <message>
        <source>Analyse</source>
        <translation>検討</translation>
    </message>
    <message>
        <source>Flip</source>
        <translation>反転</translation>
    </message>
    <message>
        <source>Set up</source>
        <translation>局面編集</translation>
    </message>
    <message>
        <source>Preparing engines…</source>
        <translation>エンジンを準備中…</translation>
    </message>
    <message>
        <source>The computer is to move (Space makes it move now)</source>
        <translation>コンピュータの手番です（スペースですぐ指させます）</translation>
    </message>
    <message>
        <source>Nothing to take back</source>
        <translation>戻す手がありません</translation>
    </message>
    <message>
        <source>Analyse mode</source>
        <translation>検討モード</translation>
    </message>
    <message>
        <source>Play mode</source>
        <translation>対局モード</translation>
    </message>
    <message>
        <source>Setting up a position: click to place, right-click to remove, then Done</source>
        <translation>局面編集中: クリックで置き、右クリックで取り除き、最後に「完了」</translation>
    </message>
    <message>
        <source>Game over: {0}</source>
        <translation>終局: {0}</translation>
    </message>
    <message>
        <source>{0} to move — {1}…</source>
        <translation>{0}の手番 — {1}…</translation>
    </message>
    <message>
        <source>{0} to move — the computer is thinking…</source>
        <translation>{0}の手番 — コンピュータ思考中…</translation>
    </message>
    <message>
        <source>{0} to move (computer) — go to the last move to let it play</source>
        <translation>{0}の手番（コンピュータ）— 最終局面に進むと指します</translation>
    </message>
    <message>
        <source>{0} to move (computer)</source>
        <translation>{0}の手番（コンピュータ）</translation>
    </message>
    <message>
        <source>{0} to move</source>
        <translation>{0}の手番</translation>
    </message>
    <message>
        <source>Sounds are on, but this machine is silent: {0}</source>
        <translation>効果音は有効ですが、この機械では音が出ません: {0}</translation>
    </message>
    <message>
        <source>{0}: no move can be typed now</source>
        <translation>{0}: 今は指し手を入力できません</translation>
    </message>
    <message>
        <source>setting up a position</source>
        <translation>局面編集中</translation>
    </message>
    <message>
        <source>preparing engines</source>
        <translation>エンジン準備中</translation>
    </message>
    <message>
        <source>{0} is not a move here: {1}</source>
        <translation>{0} はこの局面の指し手ではありません: {1}</translation>
    </message>
</context>
<context>
    <name>MoveEntry</name>
    <message>
        <source>Type a move</source>
        <extracomment>Characters that may start a typed move (letters, digits, and the marks notation uses). Keys an empty entry leaves to the window&apos;s shortcuts (walking through the game, the engine).</extracomment>
        <translation>指し手を入力</translation>
    </message>
    <message>
        <source>Type a move and press Enter: h8, 7g7f, P*5e, ７六歩, P-7f… (typing over the board starts here; Esc leaves)</source>
        <translation>指し手を入力して Enter: h8、7g7f、P*5e、７六歩、P-7f…（盤上で打ち始めるとここに入ります。Esc で抜けます）</translation>
    </message>
</context>
<context>
    <name>NewGameDialog</name>
    <message>
        <source>New game</source>
        <translation>新規対局</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>パラメータ</translation>
    </message>
    <message>
        <source>Opening</source>
        <translation>オープニング</translation>
    </message>
    <message>
        <source>None: Black plays first</source>
        <translation>なし: 黒が先に打つ</translation>
    </message>
    <message>
        <source>swap1</source>
        <translation>swap1</translation>
    </message>
    <message>
        <source>swap2</source>
        <translation>swap2</translation>
    </message>
    <message>
        <source>Opening rule</source>
        <translation>オープニングのルール</translation>
    </message>
    <message>
        <source>Players</source>
        <translation>対局者</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>持ち時間</translation>
    </message>
    <message>
        <source>The same for every player</source>
        <translation>全員同じ</translation>
    </message>
    <message>
        <source>Time control</source>
        <translation>持ち時間の設定</translation>
    </message>
    <message>
        <source>Game</source>
        <translation>ゲーム</translation>
    </message>
    <message>
        <source>Engine for {0}</source>
        <translation>{0}のエンジン</translation>
    </message>
    <message>
        <source>Swap openings</source>
        <translation>スワップのオープニング</translation>
    </message>
    <message>
        <source>The proposer places three stones (black, white, black); the chooser takes Black (swap) or stays White and plays the 4th stone.</source>
        <translation>提案者が3つの石（黒、白、黒）を置き、選択者は黒を取る（スワップ）か、白のまま4つ目の石を打ちます。</translation>
    </message>
    <message>
        <source>As swap1, or the chooser places two more stones (4th and 5th) and the proposer chooses the colour.</source>
        <translation>swap1 と同じか、選択者がさらに2つの石（4つ目と5つ目）を置き、提案者が色を選びます。</translation>
    </message>
    <message>
        <source>proposer</source>
        <translation>提案者</translation>
    </message>
    <message>
        <source>chooser</source>
        <translation>選択者</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>No swap: Black plays first as usual.</source>
        <translation>スワップなし: いつも通り黒が先に打ちます。</translation>
    </message>
</context>
<context>
    <name>OptionsForm</name>
    <message>
        <source>Hash (MB)</source>
        <extracomment>Options shown first (hash and threads), by lower-case name, with the label they get. The limits an engine may have of its own (``@key=N`` in its spec).</extracomment>
        <translation>ハッシュ (MB)</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>スレッド数</translation>
    </message>
    <message>
        <source>Memory (bytes)</source>
        <translation>メモリ（バイト）</translation>
    </message>
</context>
<context>
    <name>PlayerRow</name>
    <message>
        <source>Human</source>
        <translation>人間</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>コンピュータ</translation>
    </message>
    <message>
        <source>Engine spec: a name and options, e.g. &apos;solver,hash=16&apos;</source>
        <translation>エンジン指定: 名前とオプション（例 &apos;solver,hash=16&apos;）</translation>
    </message>
    <message>
        <source>ms per move</source>
        <translation>ミリ秒／手</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深さ</translation>
    </message>
    <message>
        <source>This player&apos;s clock (a computer with a clock ignores its time or depth per move)</source>
        <translation>この対局者の持ち時間（持ち時間のあるコンピュータは1手あたりの時間・深さを無視します）</translation>
    </message>
    <message>
        <source>Engine settings: the engine, its options and limits</source>
        <translation>エンジン設定: エンジン、オプション、制限</translation>
    </message>
</context>
<context>
    <name>Players</name>
    <message>
        <source>Black</source>
        <extracomment>The languages offered, each by its own name. The games&apos; player names, translated where the window writes them (``notation.Notation.player``).</extracomment>
        <translation>黒</translation>
    </message>
    <message>
        <source>White</source>
        <translation>白</translation>
    </message>
    <message>
        <source>Sente</source>
        <translation>先手</translation>
    </message>
    <message>
        <source>Gote</source>
        <translation>後手</translation>
    </message>
    <message>
        <source>Red</source>
        <translation>赤</translation>
    </message>
    <message>
        <source>Blue</source>
        <translation>青</translation>
    </message>
    <message>
        <source>Yellow</source>
        <translation>黄</translation>
    </message>
    <message>
        <source>Green</source>
        <translation>緑</translation>
    </message>
    <message>
        <source>Purple</source>
        <translation>紫</translation>
    </message>
    <message>
        <source>Chance</source>
        <translation>偶然</translation>
    </message>
</context>
<context>
    <name>SetupMixin</name>
    <message>
        <source>To move:</source>
        <translation>手番:</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>全消去</translation>
    </message>
    <message>
        <source>Empty the board</source>
        <translation>盤上を空にする</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Check the position and start from it</source>
        <translation>局面を確認してそこから始める</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Leave the editor; the game stays as it was</source>
        <translation>編集をやめる（対局は元のまま）</translation>
    </message>
</context>
<context>
    <name>SwapMixin</name>
    <message>
        <source>the proposer</source>
        <extracomment>The keys of the choices: swap, stay (one stone), two stones.</extracomment>
        <translation>提案者</translation>
    </message>
    <message>
        <source>the chooser</source>
        <translation>選択者</translation>
    </message>
    <message>
        <source>the computer</source>
        <translation>コンピュータ</translation>
    </message>
    <message>
        <source>you</source>
        <translation>あなた</translation>
    </message>
    <message>
        <source>The game&apos;s swap opening is left out: {0}</source>
        <translation>この対局のスワップのオープニングは使いません: {0}</translation>
    </message>
    <message>
        <source>{0}: this game has no swap opening</source>
        <translation>{0}: この対局にスワップのオープニングはありません</translation>
    </message>
    <message>
        <source>{0}: the {1} opening is settled</source>
        <translation>{0}: {1} オープニングは決まっています</translation>
    </message>
    <message>
        <source>{0}: the {1} opening is not settled; go to the last stone to go on</source>
        <translation>{0}: {1} オープニングはまだ決まっていません。続けるには最後の石へ移動してください</translation>
    </message>
    <message>
        <source>{0}: the computer answers here (Space makes it answer now)</source>
        <translation>{0}: ここはコンピュータが答えます（スペースですぐ答えさせます）</translation>
    </message>
    <message>
        <source>{0} is not allowed now: {1}</source>
        <translation>{0} は今はできません: {1}</translation>
    </message>
    <message>
        <source>stay</source>
        <translation>白のまま</translation>
    </message>
    <message>
        <source>Place the stones of the answer begun first</source>
        <translation>まず始めた答えの石を置いてください</translation>
    </message>
    <message>
        <source>two stones</source>
        <translation>2つの石</translation>
    </message>
    <message>
        <source>Two stones are not allowed now: {0} allows {1}</source>
        <translation>今は2つの石は置けません: {0} で可能なのは {1}</translation>
    </message>
    <message>
        <source>{0}: the first {1} stones were agreed in the {2} opening; variations begin after them</source>
        <translation>{0}: 最初の {1} 個の石は {2} オープニングで決まりました。変化はその後から始まります</translation>
    </message>
    <message>
        <source>{0} is not allowed: {1}</source>
        <translation>{0} はできません: {1}</translation>
    </message>
    <message>
        <source>The {0} opening stands: take back reaches back to its last stone, not into it</source>
        <translation>{0} オープニングは変わりません: 戻せるのはその最後の石までです</translation>
    </message>
    <message>
        <source>Took back the last stone of the answer</source>
        <translation>答えの最後の石を戻しました</translation>
    </message>
    <message>
        <source>The answers given in the {0} opening stand (a new game negotiates again)</source>
        <translation>{0} オープニングで出した答えは変わりません（新規対局でやり直せます）</translation>
    </message>
    <message>
        <source>The computer&apos;s answer in the {0} opening is against the rules: {1}</source>
        <translation>{0} オープニングでのコンピュータの答えはルール違反です: {1}</translation>
    </message>
    <message>
        <source>The computer swaps: it takes Black; you play White</source>
        <translation>コンピュータはスワップします: コンピュータが黒、あなたが白です</translation>
    </message>
    <message>
        <source>You swap: you take Black; the computer plays White</source>
        <translation>あなたはスワップします: あなたが黒、コンピュータが白です</translation>
    </message>
    <message>
        <source>{0} swaps: takes Black; {1} plays White</source>
        <translation>{0} はスワップします: 黒を取り、{1} が白です</translation>
    </message>
    <message>
        <source>{0} placed the opening: {1}</source>
        <translation>{0} がオープニングを置きました: {1}</translation>
    </message>
    <message>
        <source>You placed two stones ({0}); the computer chooses</source>
        <translation>2つの石（{0}）を置きました。コンピュータが選びます</translation>
    </message>
    <message>
        <source>You take White and play {0}</source>
        <translation>あなたは白を取り、{0} に打ちます</translation>
    </message>
    <message>
        <source>You stay White and play {0}</source>
        <translation>あなたは白のまま {0} に打ちます</translation>
    </message>
    <message>
        <source>{0} placed two stones ({1}) and hands the choice back</source>
        <translation>{0} が2つの石（{1}）を置き、選択を返しました</translation>
    </message>
    <message>
        <source>{0} takes White and plays {1}</source>
        <translation>{0} は白を取り、{1} に打ちます</translation>
    </message>
    <message>
        <source>{0} stays White and plays {1}</source>
        <translation>{0} は白のまま {1} に打ちます</translation>
    </message>
    <message>
        <source>{0} opening: go to the last stone to go on</source>
        <translation>{0} オープニング: 続けるには最後の石へ移動してください</translation>
    </message>
    <message>
        <source>{0}: the computer is proposing the opening…</source>
        <translation>{0}: コンピュータがオープニングを考えています…</translation>
    </message>
    <message>
        <source>{0}: the computer is deciding: swap, or stay and play…</source>
        <translation>{0}: コンピュータが判断中です: スワップするか、そのまま打つか…</translation>
    </message>
    <message>
        <source>{0}: the computer answers ({1})</source>
        <translation>{0}: コンピュータが答えます（{1}）</translation>
    </message>
    <message>
        <source>{0}: you propose: place stone {1} of 3 ({2})</source>
        <translation>{0}: あなたが提案者です: 3つ中 {1} つ目の石を置いてください（{2}）</translation>
    </message>
    <message>
        <source>{0}: {1} places the opening: stone {2} of 3 ({3})</source>
        <translation>{0}: {1} がオープニングを置きます: 3つ中 {2} つ目（{3}）</translation>
    </message>
    <message>
        <source>{0}: place two stones: stone {1} of 2 ({2}); then the computer chooses</source>
        <translation>{0}: 2つの石を置いてください: 2つ中 {1} つ目（{2}）。その後コンピュータが選びます</translation>
    </message>
    <message>
        <source>{0}: {1} places two stones: stone {2} of 2 ({3}); then {4} chooses</source>
        <translation>{0}: {1} が2つの石を置きます: 2つ中 {2} つ目（{3}）。その後 {4} が選びます</translation>
    </message>
    <message>
        <source>your choice</source>
        <translation>あなたの選択</translation>
    </message>
    <message>
        <source>{0} chooses</source>
        <translation>{0} が選びます</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black), stay White and place the 4th stone, or place two stones</source>
        <translation>{0}: {1}: スワップ（黒を取る）、白のまま4つ目の石を置く、または2つの石を置く</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black) or stay White and place the 4th stone</source>
        <translation>{0}: {1}: スワップ（黒を取る）か、白のまま4つ目の石を置く</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black) or take White and place the 6th stone</source>
        <translation>{0}: {1}: スワップ（黒を取る）か、白を取って6つ目の石を置く</translation>
    </message>
    <message>
        <source>Swap: take Black</source>
        <translation>スワップ: 黒を取る</translation>
    </message>
    <message>
        <source>Stay White: place the 4th stone</source>
        <translation>白のまま: 4つ目の石を置く</translation>
    </message>
    <message>
        <source>Take White: place the 6th stone</source>
        <translation>白を取る: 6つ目の石を置く</translation>
    </message>
    <message>
        <source>Place two stones (4th and 5th) and let {0} choose</source>
        <translation>2つの石（4つ目と5つ目）を置き、{0} に選ばせる</translation>
    </message>
</context>
</TS>
