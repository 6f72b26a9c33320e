<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AnalysisPanel</name>
    <message>
        <source>Engine idle</source>
        <extracomment>The panel redraws at most this often (ms), however fast reports arrive. Rows kept in the history (the oldest go first).</extracomment>
        <translation>引擎空闲</translation>
    </message>
    <message>
        <source>lines: </source>
        <translation>候选数: </translation>
    </message>
    <message>
        <source>How many best lines the engine shows (multi-PV)</source>
        <translation>引擎显示的最佳变化数（多PV）</translation>
    </message>
    <message>
        <source>Analyse</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Start or stop the engine (Space)</source>
        <translation>启动或停止引擎（空格）</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>By depth</source>
        <translation>按深度</translation>
    </message>
    <message>
        <source>The best lines, each updated in place as the engine goes deeper</source>
        <translation>最佳变化（引擎每加深一层就原地更新）</translation>
    </message>
    <message>
        <source>Every report of the engine, the deepest first</source>
        <translation>引擎的全部输出（最深的在前）</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>N/s</source>
        <translation>节点/秒</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Principal variation</source>
        <translation>主要变化</translation>
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
        <translation>不计时</translation>
    </message>
    <message>
        <source>Base + increment</source>
        <translation>基本时间＋加秒</translation>
    </message>
    <message>
        <source>Base + byoyomi</source>
        <translation>基本时间＋读秒</translation>
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
        <translation>读秒次数</translation>
    </message>
    <message>
        <source>Increment per move</source>
        <translation>每步加秒</translation>
    </message>
    <message>
        <source>Byoyomi per move</source>
        <translation>每步读秒</translation>
    </message>
</context>
<context>
    <name>EngineDialogsMixin</name>
    <message>
        <source>Analysis engine: {0}</source>
        <translation>分析引擎：{0}</translation>
    </message>
</context>
<context>
    <name>EngineManagerDialog</name>
    <message>
        <source>Engine manager</source>
        <extracomment>The games it is offered for (empty: its protocol&apos;s: USI shogi, Gomocup every gomoku-like game).</extracomment>
        <translation>引擎管理</translation>
    </message>
    <message>
        <source>USI (shogi)</source>
        <translation>USI（将棋）</translation>
    </message>
    <message>
        <source>Gomocup (gomoku)</source>
        <translation>Gomocup（五子棋）</translation>
    </message>
    <message>
        <source>Program, with its arguments if it needs any</source>
        <translation>程序（如需要可带参数）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Options…</source>
        <translation>选项…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>External engines (USI for shogi, Gomocup for gomoku):</source>
        <translation>外部引擎（将棋用 USI，五子棋用 Gomocup）：</translation>
    </message>
    <message>
        <source>Add an engine:</source>
        <translation>添加引擎：</translation>
    </message>
    <message>
        <source>No external engine yet: add one below.</source>
        <translation>还没有外部引擎：请在下方添加。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Plays: {0}. By: {1}. Options: {2} ({3} changed: {4}).</source>
        <translation>适用：{0}。作者：{1}。选项：{2}（已改 {3}：{4}）。</translation>
    </message>
    <message>
        <source>Choose the engine&apos;s program</source>
        <translation>选择引擎程序</translation>
    </message>
    <message>
        <source>Cannot add {0}: {1}</source>
        <translation>无法添加 {0}：{1}</translation>
    </message>
</context>
<context>
    <name>EngineOptionsDialog</name>
    <message>
        <source>Options of {0}</source>
        <translation>{0} 的选项</translation>
    </message>
</context>
<context>
    <name>EngineSettingsDialog</name>
    <message>
        <source>Engine settings</source>
        <translation>引擎设置</translation>
    </message>
    <message>
        <source>Engine manager…</source>
        <translation>引擎管理…</translation>
    </message>
    <message>
        <source>The engine&apos;s options</source>
        <translation>引擎选项</translation>
    </message>
    <message>
        <source>No limit of its own</source>
        <translation>无自身限制</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Milliseconds per move</source>
        <translation>每步毫秒数</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>限制</translation>
    </message>
    <message>
        <source>Lines (multi-PV)</source>
        <translation>候选数（多PV）</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Engine spec</source>
        <translation>引擎规格</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>External {0} engine: {1}</source>
        <translation>外部 {0} 引擎：{1}</translation>
    </message>
    <message>
        <source>An engine spec that is not in the engine manager: its options are kept as written.</source>
        <translation>不在引擎管理中的引擎规格：其选项按原样保留。</translation>
    </message>
</context>
<context>
    <name>EnginesMixin</name>
    <message>
        <source>Preparing the {0} engine</source>
        <translation>正在准备{0}引擎</translation>
    </message>
    <message>
        <source>the {0} engine</source>
        <translation>{0}引擎</translation>
    </message>
    <message>
        <source>Preparing {0}</source>
        <translation>正在准备：{0}</translation>
    </message>
    <message>
        <source> ({0} of {1})</source>
        <translation>（{0}/{1}）</translation>
    </message>
    <message>
        <source>Engine problem: {0}</source>
        <translation>引擎问题：{0}</translation>
    </message>
    <message>
        <source>{0}: {1} is thinking</source>
        <translation>{0}：{1} 正在思考</translation>
    </message>
    <message>
        <source>{0} opening: {1} is deciding</source>
        <translation>{0} 开局：{1} 正在决定</translation>
    </message>
    <message>
        <source>Analysing with {0}</source>
        <translation>正在用 {0} 分析</translation>
    </message>
    <message>
        <source>the default engine</source>
        <translation>默认引擎</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Game over: {0}</source>
        <translation>对局结束：{0}</translation>
    </message>
    <message>
        <source>Engine idle</source>
        <translation>引擎空闲</translation>
    </message>
    <message>
        <source>Computer is thinking</source>
        <translation>电脑思考中</translation>
    </message>
    <message>
        <source>Analysing</source>
        <translation>分析中</translation>
    </message>
    <message>
        <source>Looking for a hint</source>
        <translation>正在寻找提示</translation>
    </message>
    <message>
        <source>{0} opening: the computer answered</source>
        <translation>{0} 开局：电脑已作答</translation>
    </message>
    <message>
        <source>{0} played {1} ({2}, depth {3})</source>
        <translation>{0}走了{1}（{2}，深度 {3}）</translation>
    </message>
    <message>
        <source>Hint: {0} ({1})</source>
        <translation>提示：{0}（{1}）</translation>
    </message>
    <message>
        <source>Analysis complete: {0} at depth {1}</source>
        <translation>分析完成：{0}（深度 {1}）</translation>
    </message>
    <message>
        <source>The engine failed: {0}</source>
        <translation>引擎出错：{0}</translation>
    </message>
    <message>
        <source>The engine failed</source>
        <translation>引擎出错</translation>
    </message>
    <message>
        <source>Analysis stopped</source>
        <translation>分析已停止</translation>
    </message>
</context>
<context>
    <name>EvalGraph</name>
    <message>
        <source>The engine&apos;s scores over the main line; click to go to that move</source>
        <extracomment>Scores (in the engines&apos; units, 100 = one pawn or one &quot;point&quot;) marked on the scale of a two-player graph.</extracomment>
        <translation>主线上引擎的评分；单击跳到该步</translation>
    </message>
    <message>
        <source>{0} better</source>
        <translation>{0}占优</translation>
    </message>
</context>
<context>
    <name>FilesMixin</name>
    <message>
        <source>No game has a file format to import</source>
        <translation>没有可导入文件格式的游戏</translation>
    </message>
    <message>
        <source>Preparing engines…</source>
        <translation>正在准备引擎…</translation>
    </message>
</context>
<context>
    <name>LanguageMixin</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>The window will be in {0} when gamesuite is started again.</source>
        <translation>下次启动 gamesuite 时界面将使用{0}。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Analysis</source>
        <extracomment>The smallest window: at this size every board is whole and the docks keep their minimum sizes. The docks&apos; sizes at the default window size (the analysis panel&apos;s height, the right column&apos;s width).</extracomment>
        <translation>分析</translation>
    </message>
    <message>
        <source>Moves</source>
        <translation>棋谱</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>形势图</translation>
    </message>
    <message>
        <source>&amp;New game…</source>
        <translation>新对局(&amp;N)…</translation>
    </message>
    <message>
        <source>Start a new game</source>
        <translation>开始新对局</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a saved game</source>
        <translation>打开已保存的对局</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the game</source>
        <translation>保存对局</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the game to a new file</source>
        <translation>将对局保存到新文件</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Open a game in the game&apos;s own file format</source>
        <translation>打开游戏自身格式的棋谱</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>Save the line shown in the game&apos;s own file format</source>
        <translation>以游戏自身格式保存显示的变化</translation>
    </message>
    <message>
        <source>&amp;Export diagram…</source>
        <translation>导出棋图(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the board as PNG or SVG</source>
        <translation>将棋盘保存为 PNG 或 SVG</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Take back</source>
        <translation>悔棋(&amp;T)</translation>
    </message>
    <message>
        <source>Take back your last move</source>
        <translation>撤回你的上一步</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Replay the next move</source>
        <translation>重放下一步</translation>
    </message>
    <message>
        <source>&amp;Copy position</source>
        <translation>复制局面(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the position as text</source>
        <translation>以文本复制局面</translation>
    </message>
    <message>
        <source>&amp;Paste position</source>
        <translation>粘贴局面(&amp;P)</translation>
    </message>
    <message>
        <source>Set up a position from text</source>
        <translation>从文本设置局面</translation>
    </message>
    <message>
        <source>Set &amp;up position</source>
        <translation>编辑局面(&amp;U)</translation>
    </message>
    <message>
        <source>Edit the position</source>
        <translation>编辑局面</translation>
    </message>
    <message>
        <source>First move</source>
        <translation>第一步</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>One move back</source>
        <translation>后退一步</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>One move forward</source>
        <translation>前进一步</translation>
    </message>
    <message>
        <source>Last move</source>
        <translation>最后一步</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结尾</translation>
    </message>
    <message>
        <source>Start/stop &amp;engine</source>
        <translation>启动/停止引擎(&amp;E)</translation>
    </message>
    <message>
        <source>Start or stop the engine</source>
        <translation>启动或停止引擎</translation>
    </message>
    <message>
        <source>&amp;Hint</source>
        <translation>提示(&amp;H)</translation>
    </message>
    <message>
        <source>Ask the engine for a move</source>
        <translation>请引擎给出一步</translation>
    </message>
    <message>
        <source>Engine &amp;settings…</source>
        <translation>引擎设置(&amp;S)…</translation>
    </message>
    <message>
        <source>The analysis engine, its options, limits and lines</source>
        <translation>分析引擎及其选项、限制和候选数</translation>
    </message>
    <message>
        <source>Engine &amp;manager…</source>
        <translation>引擎管理(&amp;M)…</translation>
    </message>
    <message>
        <source>Add external USI and Gomocup engines</source>
        <translation>添加外部 USI 和 Gomocup 引擎</translation>
    </message>
    <message>
        <source>&amp;Flip board</source>
        <translation>翻转棋盘(&amp;F)</translation>
    </message>
    <message>
        <source>Turn the board around</source>
        <translation>将棋盘旋转180度</translation>
    </message>
    <message>
        <source>&amp;Western piece letters</source>
        <translation>棋子用西式字母(&amp;W)</translation>
    </message>
    <message>
        <source>Shogi pieces with letters instead of kanji</source>
        <translation>将棋棋子用字母代替汉字</translation>
    </message>
    <message>
        <source>&amp;Numbered stones</source>
        <translation>棋子显示手数(&amp;N)</translation>
    </message>
    <message>
        <source>Show on each stone the number of its move</source>
        <translation>在每颗棋子上显示其手数</translation>
    </message>
    <message>
        <source>S&amp;ounds</source>
        <translation>音效(&amp;O)</translation>
    </message>
    <message>
        <source>A sound for each move, capture and the end of the game</source>
        <translation>每步、吃子和终局时发出声音</translation>
    </message>
    <message>
        <source>&amp;Japanese (▲７六歩)</source>
        <translation>日式(&amp;J) (▲７六歩)</translation>
    </message>
    <message>
        <source>W&amp;estern (P-7f)</source>
        <translation>西式(&amp;E) (P-7f)</translation>
    </message>
    <message>
        <source>&amp;USI (7g7f)</source>
        <translation>USI 格式(&amp;U) (7g7f)</translation>
    </message>
    <message>
        <source>T&amp;ype a move</source>
        <translation>输入着法(&amp;Y)</translation>
    </message>
    <message>
        <source>Type a move (h8, 7g7f, ７六歩…) and press Enter</source>
        <translation>输入着法（h8、7g7f、７六歩…）后按回车</translation>
    </message>
    <message>
        <source>&amp;Play against the computer</source>
        <translation>与电脑对弈(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Analyse</source>
        <translation>分析模式(&amp;A)</translation>
    </message>
    <message>
        <source>Engine follows every position</source>
        <translation>引擎分析每个局面</translation>
    </message>
    <message>
        <source>&amp;Light theme</source>
        <translation>浅色主题(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Game</source>
        <translation>对局(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Moves</source>
        <translation>着法(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>引擎(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Move notation</source>
        <translation>棋谱记法(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;How to use</source>
        <translation>使用方法(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Rules of the game</source>
        <translation>游戏规则(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新局</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Take back</source>
        <translation>悔棋</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>对弈</translation>
    </message>
    <message>
        <source>Analyse</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Flip</source>
        <translation>翻转</translation>
    </message>
    <message>
        <source>Set up</source>
        <translation>摆局面</translation>
    </message>
    <message>
        <source>Preparing engines…</source>
        <translation>正在准备引擎…</translation>
    </message>
    <message>
        <source>The computer is to move (Space makes it move now)</source>
        <translation>轮到电脑走（按空格让它立即走）</translation>
    </message>
    <message>
        <source>Nothing to take back</source>
        <translation>没有可撤回的着法</translation>
    </message>
    <message>
        <source>Analyse mode</source>
        <translation>分析模式</translation>
    </message>
    <message>
        <source>Play mode</source>
        <translation>对弈模式</translation>
    </message>
    <message>
        <source>Setting up a position: click to place, right-click to remove, then Done</source>
        <translation>正在摆局面：单击放置，右击移除，然后点“完成”</translation>
    </message>
    <message>
        <source>Game over: {0}</source>
        <translation>对局结束：{0}</translation>
    </message>
    <message>
        <source>{0} to move — {1}…</source>
        <translation>轮到{0} — {1}…</translation>
    </message>
    <message>
        <source>{0} to move — the computer is thinking…</source>
        <translation>轮到{0} — 电脑思考中…</translation>
    </message>
    <message>
        <source>{0} to move (computer) — go to the last move to let it play</source>
        <translation>轮到{0}（电脑）— 转到最后一步让它走</translation>
    </message>
    <message>
        <source>{0} to move (computer)</source>
        <translation>轮到{0}（电脑）</translation>
    </message>
    <message>
        <source>{0} to move</source>
        <translation>轮到{0}</translation>
    </message>
    <message>
        <source>Sounds are on, but this machine is silent: {0}</source>
        <translation>音效已开启，但本机无法发声：{0}</translation>
    </message>
    <message>
        <source>{0}: no move can be typed now</source>
        <translation>{0}：现在不能输入着法</translation>
    </message>
    <message>
        <source>setting up a position</source>
        <translation>正在摆局面</translation>
    </message>
    <message>
        <source>preparing engines</source>
        <translation>正在准备引擎</translation>
    </message>
    <message>
        <source>{0} is not a move here: {1}</source>
        <translation>{0} 在此局面不是合法着法：{1}</translation>
    </message>
</context>
<context>
    <name>MoveEntry</name>
    <message>
        <source>Type a move</source>
        <extracomment>Characters that may start a typed move (letters, digits, and the marks notation uses). Keys an empty entry leaves to the window&apos;s shortcuts (walking through the game, the engine).</extracomment>
        <translation>输入着法</translation>
    </message>
    <message>
        <source>Type a move and press Enter: h8, 7g7f, P*5e, ７六歩, P-7f… (typing over the board starts here; Esc leaves)</source>
        <translation>输入着法后按回车：h8、7g7f、P*5e、７六歩、P-7f…（在棋盘上直接打字也会从这里开始；Esc 退出）</translation>
    </message>
</context>
<context>
    <name>NewGameDialog</name>
    <message>
        <source>New game</source>
        <translation>新对局</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Opening</source>
        <translation>开局</translation>
    </message>
    <message>
        <source>None: Black plays first</source>
        <translation>无：黑方先下</translation>
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
        <translation>开局规则</translation>
    </message>
    <message>
        <source>Players</source>
        <translation>对局者</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>计时</translation>
    </message>
    <message>
        <source>The same for every player</source>
        <translation>所有玩家相同</translation>
    </message>
    <message>
        <source>Time control</source>
        <translation>用时设置</translation>
    </message>
    <message>
        <source>Game</source>
        <translation>游戏</translation>
    </message>
    <message>
        <source>Engine for {0}</source>
        <translation>{0}的引擎</translation>
    </message>
    <message>
        <source>Swap openings</source>
        <translation>交换开局</translation>
    </message>
    <message>
        <source>The proposer places three stones (black, white, black); the chooser takes Black (swap) or stays White and plays the 4th stone.</source>
        <translation>提议方放三颗子（黑、白、黑）；选择方执黑（交换），或继续执白并下第4颗子。</translation>
    </message>
    <message>
        <source>As swap1, or the chooser places two more stones (4th and 5th) and the proposer chooses the colour.</source>
        <translation>与 swap1 相同，或者选择方再放两颗子（第4和第5颗），由提议方选择颜色。</translation>
    </message>
    <message>
        <source>proposer</source>
        <translation>提议方</translation>
    </message>
    <message>
        <source>chooser</source>
        <translation>选择方</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>No swap: Black plays first as usual.</source>
        <translation>不交换：照常黑方先下。</translation>
    </message>
</context>
<context>
    <name>OptionsForm</name>
    <message>
        <source>Hash (MB)</source>
        <extracomment>Options shown first (hash and threads), by lower-case name, with the label they get. The limits an engine may have of its own (``@key=N`` in its spec).</extracomment>
        <translation>哈希 (MB)</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Memory (bytes)</source>
        <translation>内存（字节）</translation>
    </message>
</context>
<context>
    <name>PlayerRow</name>
    <message>
        <source>Human</source>
        <translation>人</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>电脑</translation>
    </message>
    <message>
        <source>Engine spec: a name and options, e.g. &apos;solver,hash=16&apos;</source>
        <translation>引擎规格：名称和选项，例如 &apos;solver,hash=16&apos;</translation>
    </message>
    <message>
        <source>ms per move</source>
        <translation>毫秒/步</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>This player&apos;s clock (a computer with a clock ignores its time or depth per move)</source>
        <translation>该玩家的计时（有计时的电脑忽略每步时间或深度）</translation>
    </message>
    <message>
        <source>Engine settings: the engine, its options and limits</source>
        <translation>引擎设置：引擎、选项和限制</translation>
    </message>
</context>
<context>
    <name>Players</name>
    <message>
        <source>Black</source>
        <extracomment>The languages offered, each by its own name. The games&apos; player names, translated where the window writes them (``notation.Notation.player``).</extracomment>
        <translation>黑方</translation>
    </message>
    <message>
        <source>White</source>
        <translation>白方</translation>
    </message>
    <message>
        <source>Sente</source>
        <translation>先手</translation>
    </message>
    <message>
        <source>Gote</source>
        <translation>后手</translation>
    </message>
    <message>
        <source>Red</source>
        <translation>红</translation>
    </message>
    <message>
        <source>Blue</source>
        <translation>蓝</translation>
    </message>
    <message>
        <source>Yellow</source>
        <translation>黄</translation>
    </message>
    <message>
        <source>Green</source>
        <translation>绿</translation>
    </message>
    <message>
        <source>Purple</source>
        <translation>紫</translation>
    </message>
    <message>
        <source>Chance</source>
        <translation>随机</translation>
    </message>
</context>
<context>
    <name>SetupMixin</name>
    <message>
        <source>To move:</source>
        <translation>轮到:</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Empty the board</source>
        <translation>清空棋盘</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Check the position and start from it</source>
        <translation>检查局面并从此开始</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Leave the editor; the game stays as it was</source>
        <translation>退出编辑；对局保持原样</translation>
    </message>
</context>
<context>
    <name>SwapMixin</name>
    <message>
        <source>the proposer</source>
        <extracomment>The keys of the choices: swap, stay (one stone), two stones.</extracomment>
        <translation>提议方</translation>
    </message>
    <message>
        <source>the chooser</source>
        <translation>选择方</translation>
    </message>
    <message>
        <source>the computer</source>
        <translation>电脑</translation>
    </message>
    <message>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <source>The game&apos;s swap opening is left out: {0}</source>
        <translation>本局的交换开局被忽略：{0}</translation>
    </message>
    <message>
        <source>{0}: this game has no swap opening</source>
        <translation>{0}：本局没有交换开局</translation>
    </message>
    <message>
        <source>{0}: the {1} opening is settled</source>
        <translation>{0}：{1} 开局已经确定</translation>
    </message>
    <message>
        <source>{0}: the {1} opening is not settled; go to the last stone to go on</source>
        <translation>{0}：{1} 开局尚未确定；请转到最后一颗子以继续</translation>
    </message>
    <message>
        <source>{0}: the computer answers here (Space makes it answer now)</source>
        <translation>{0}：这里由电脑作答（按空格让它立即作答）</translation>
    </message>
    <message>
        <source>{0} is not allowed now: {1}</source>
        <translation>{0} 现在不允许：{1}</translation>
    </message>
    <message>
        <source>stay</source>
        <translation>继续执白</translation>
    </message>
    <message>
        <source>Place the stones of the answer begun first</source>
        <translation>请先放完已开始的答复的子</translation>
    </message>
    <message>
        <source>two stones</source>
        <translation>两颗子</translation>
    </message>
    <message>
        <source>Two stones are not allowed now: {0} allows {1}</source>
        <translation>现在不允许放两颗子：{0} 允许 {1}</translation>
    </message>
    <message>
        <source>{0}: the first {1} stones were agreed in the {2} opening; variations begin after them</source>
        <translation>{0}：前 {1} 颗子是在 {2} 开局中商定的；变化从其后开始</translation>
    </message>
    <message>
        <source>{0} is not allowed: {1}</source>
        <translation>{0} 不允许：{1}</translation>
    </message>
    <message>
        <source>The {0} opening stands: take back reaches back to its last stone, not into it</source>
        <translation>{0} 开局保持不变：撤回只能退到它的最后一颗子，不能退入其中</translation>
    </message>
    <message>
        <source>Took back the last stone of the answer</source>
        <translation>已撤回答复的最后一颗子</translation>
    </message>
    <message>
        <source>The answers given in the {0} opening stand (a new game negotiates again)</source>
        <translation>{0} 开局中已给出的答复保持不变（新对局可重新商定）</translation>
    </message>
    <message>
        <source>The computer&apos;s answer in the {0} opening is against the rules: {1}</source>
        <translation>电脑在 {0} 开局中的答复违反规则：{1}</translation>
    </message>
    <message>
        <source>The computer swaps: it takes Black; you play White</source>
        <translation>电脑选择交换：电脑执黑，你执白</translation>
    </message>
    <message>
        <source>You swap: you take Black; the computer plays White</source>
        <translation>你选择交换：你执黑，电脑执白</translation>
    </message>
    <message>
        <source>{0} swaps: takes Black; {1} plays White</source>
        <translation>{0} 选择交换：执黑；{1} 执白</translation>
    </message>
    <message>
        <source>{0} placed the opening: {1}</source>
        <translation>{0} 放好了开局：{1}</translation>
    </message>
    <message>
        <source>You placed two stones ({0}); the computer chooses</source>
        <translation>你放了两颗子（{0}）；由电脑选择</translation>
    </message>
    <message>
        <source>You take White and play {0}</source>
        <translation>你执白并下 {0}</translation>
    </message>
    <message>
        <source>You stay White and play {0}</source>
        <translation>你继续执白并下 {0}</translation>
    </message>
    <message>
        <source>{0} placed two stones ({1}) and hands the choice back</source>
        <translation>{0} 放了两颗子（{1}），把选择交回</translation>
    </message>
    <message>
        <source>{0} takes White and plays {1}</source>
        <translation>{0} 执白并下 {1}</translation>
    </message>
    <message>
        <source>{0} stays White and plays {1}</source>
        <translation>{0} 继续执白并下 {1}</translation>
    </message>
    <message>
        <source>{0} opening: go to the last stone to go on</source>
        <translation>{0} 开局：请转到最后一颗子以继续</translation>
    </message>
    <message>
        <source>{0}: the computer is proposing the opening…</source>
        <translation>{0}：电脑正在提议开局…</translation>
    </message>
    <message>
        <source>{0}: the computer is deciding: swap, or stay and play…</source>
        <translation>{0}：电脑正在决定：交换，还是不换并落子…</translation>
    </message>
    <message>
        <source>{0}: the computer answers ({1})</source>
        <translation>{0}：由电脑作答（{1}）</translation>
    </message>
    <message>
        <source>{0}: you propose: place stone {1} of 3 ({2})</source>
        <translation>{0}：由你提议：放第 {1} 颗子，共 3 颗（{2}）</translation>
    </message>
    <message>
        <source>{0}: {1} places the opening: stone {2} of 3 ({3})</source>
        <translation>{0}：{1} 放开局：第 {2} 颗，共 3 颗（{3}）</translation>
    </message>
    <message>
        <source>{0}: place two stones: stone {1} of 2 ({2}); then the computer chooses</source>
        <translation>{0}：放两颗子：第 {1} 颗，共 2 颗（{2}）；然后由电脑选择</translation>
    </message>
    <message>
        <source>{0}: {1} places two stones: stone {2} of 2 ({3}); then {4} chooses</source>
        <translation>{0}：{1} 放两颗子：第 {2} 颗，共 2 颗（{3}）；然后由{4}选择</translation>
    </message>
    <message>
        <source>your choice</source>
        <translation>由你选择</translation>
    </message>
    <message>
        <source>{0} chooses</source>
        <translation>由{0}选择</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black), stay White and place the 4th stone, or place two stones</source>
        <translation>{0}：{1}：交换（执黑）、继续执白并放第4颗子，或放两颗子</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black) or stay White and place the 4th stone</source>
        <translation>{0}：{1}：交换（执黑），或继续执白并放第4颗子</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black) or take White and place the 6th stone</source>
        <translation>{0}：{1}：交换（执黑），或执白并放第6颗子</translation>
    </message>
    <message>
        <source>Swap: take Black</source>
        <translation>交换：执黑</translation>
    </message>
    <message>
        <source>Stay White: place the 4th stone</source>
        <translation>继续执白：放第4颗子</translation>
    </message>
    <message>
        <source>Take White: place the 6th stone</source>
        <translation>执白：放第6颗子</translation>
    </message>
    <message>
        <source>Place two stones (4th and 5th) and let {0} choose</source>
        <translation>放两颗子（第4和第5颗），让{0}选择</translation>
    </message>
</context>
</TS>
