<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru" sourcelanguage="en">
<context>
    <name>AnalysisPanel</name>
    <message>
        <source>Engine idle</source>
        <extracomment>The panel redraws at most this often (ms), however fast reports arrive. Rows kept in the history (the oldest go first).</extracomment>
        <translation>Движок не занят</translation>
    </message>
    <message>
        <source>lines: </source>
        <translation>линий: </translation>
    </message>
    <message>
        <source>How many best lines the engine shows (multi-PV)</source>
        <translation>Сколько лучших вариантов показывает движок (multi-PV)</translation>
    </message>
    <message>
        <source>Analyse</source>
        <translation>Анализ</translation>
    </message>
    <message>
        <source>Start or stop the engine (Space)</source>
        <translation>Запустить или остановить движок (пробел)</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>Варианты</translation>
    </message>
    <message>
        <source>By depth</source>
        <translation>По глубине</translation>
    </message>
    <message>
        <source>The best lines, each updated in place as the engine goes deeper</source>
        <translation>Лучшие варианты; каждый обновляется по мере углубления</translation>
    </message>
    <message>
        <source>Every report of the engine, the deepest first</source>
        <translation>Все сообщения движка, сначала самые глубокие</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Оценка</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>№</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>Глубина</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Узлы</translation>
    </message>
    <message>
        <source>N/s</source>
        <translation>Узл/с</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Время</translation>
    </message>
    <message>
        <source>Principal variation</source>
        <translation>Главный вариант</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Стоп</translation>
    </message>
</context>
<context>
    <name>ClockEdit</name>
    <message>
        <source>No clock</source>
        <translation>Без часов</translation>
    </message>
    <message>
        <source>Base + increment</source>
        <translation>Основное + добавка</translation>
    </message>
    <message>
        <source>Base + byoyomi</source>
        <translation>Основное + бёёми</translation>
    </message>
    <message>
        <source> min</source>
        <translation> мин</translation>
    </message>
    <message>
        <source> s</source>
        <translation> с</translation>
    </message>
    <message>
        <source>Byoyomi periods</source>
        <translation>Периоды бёёми</translation>
    </message>
    <message>
        <source>Increment per move</source>
        <translation>Добавка за ход</translation>
    </message>
    <message>
        <source>Byoyomi per move</source>
        <translation>Бёёми на ход</translation>
    </message>
</context>
<context>
    <name>EngineDialogsMixin</name>
    <message>
        <source>Analysis engine: {0}</source>
        <translation>Движок анализа: {0}</translation>
    </message>
</context>
<context>
    <name>EngineManagerDialog</name>
    <message>
        <source>Engine manager</source>
        <extracomment>The games it is offered for (empty: its protocol&apos;s: USI shogi, Gomocup every gomoku-like game).</extracomment>
        <translation>Менеджер движков</translation>
    </message>
    <message>
        <source>USI (shogi)</source>
        <translation>USI (сёги)</translation>
    </message>
    <message>
        <source>Gomocup (gomoku)</source>
        <translation>Gomocup (гомоку)</translation>
    </message>
    <message>
        <source>Program, with its arguments if it needs any</source>
        <translation>Программа (с аргументами, если нужны)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Обзор…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Добавить</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Удалить</translation>
    </message>
    <message>
        <source>Options…</source>
        <translation>Параметры…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Имя</translation>
    </message>
    <message>
        <source>External engines (USI for shogi, Gomocup for gomoku):</source>
        <translation>Внешние движки (USI для сёги, Gomocup для гомоку):</translation>
    </message>
    <message>
        <source>Add an engine:</source>
        <translation>Добавить движок:</translation>
    </message>
    <message>
        <source>No external engine yet: add one below.</source>
        <translation>Внешних движков пока нет: добавьте ниже.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>нет</translation>
    </message>
    <message>
        <source>Plays: {0}. By: {1}. Options: {2} ({3} changed: {4}).</source>
        <translation>Играет: {0}. Автор: {1}. Параметров: {2} (изменено {3}: {4}).</translation>
    </message>
    <message>
        <source>Choose the engine&apos;s program</source>
        <translation>Выберите программу движка</translation>
    </message>
    <message>
        <source>Cannot add {0}: {1}</source>
        <translation>Не удалось добавить {0}: {1}</translation>
    </message>
</context>
<context>
    <name>EngineOptionsDialog</name>
    <message>
        <source>Options of {0}</source>
        <translation>Параметры {0}</translation>
    </message>
</context>
<context>
    <name>EngineSettingsDialog</name>
    <message>
        <source>Engine settings</source>
        <translation>Настройки движка</translation>
    </message>
    <message>
        <source>Engine manager…</source>
        <translation>Менеджер движков…</translation>
    </message>
    <message>
        <source>The engine&apos;s options</source>
        <translation>Параметры движка</translation>
    </message>
    <message>
        <source>No limit of its own</source>
        <translation>Без собственного предела</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>Глубина</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Узлы</translation>
    </message>
    <message>
        <source>Milliseconds per move</source>
        <translation>Миллисекунд на ход</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Поиск</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>Предел</translation>
    </message>
    <message>
        <source>Lines (multi-PV)</source>
        <translation>Линий (multi-PV)</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Движок</translation>
    </message>
    <message>
        <source>Engine spec</source>
        <translation>Спецификация движка</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation> (по умолчанию)</translation>
    </message>
    <message>
        <source>External {0} engine: {1}</source>
        <translation>Внешний движок {0}: {1}</translation>
    </message>
    <message>
        <source>An engine spec that is not in the engine manager: its options are kept as written.</source>
        <translation>Спецификация движка не из менеджера: её параметры сохраняются как написаны.</translation>
    </message>
</context>
<context>
    <name>EnginesMixin</name>
    <message>
        <source>Preparing the {0} engine</source>
        <translation>Подготовка движка: {0}</translation>
    </message>
    <message>
        <source>the {0} engine</source>
        <translation>движок {0}</translation>
    </message>
    <message>
        <source>Preparing {0}</source>
        <translation>Подготовка: {0}</translation>
    </message>
    <message>
        <source> ({0} of {1})</source>
        <translation> ({0} из {1})</translation>
    </message>
    <message>
        <source>Engine problem: {0}</source>
        <translation>Проблема движка: {0}</translation>
    </message>
    <message>
        <source>{0}: {1} is thinking</source>
        <translation>{0}: {1} думает</translation>
    </message>
    <message>
        <source>{0} opening: {1} is deciding</source>
        <translation>Дебют {0}: {1} решает</translation>
    </message>
    <message>
        <source>Analysing with {0}</source>
        <translation>Анализ: {0}</translation>
    </message>
    <message>
        <source>the default engine</source>
        <translation>движок по умолчанию</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Остановлено</translation>
    </message>
    <message>
        <source>Game over: {0}</source>
        <translation>Игра окончена: {0}</translation>
    </message>
    <message>
        <source>Engine idle</source>
        <translation>Движок не занят</translation>
    </message>
    <message>
        <source>Computer is thinking</source>
        <translation>Компьютер думает</translation>
    </message>
    <message>
        <source>Analysing</source>
        <translation>Анализ</translation>
    </message>
    <message>
        <source>Looking for a hint</source>
        <translation>Поиск подсказки</translation>
    </message>
    <message>
        <source>{0} opening: the computer answered</source>
        <translation>Дебют {0}: компьютер ответил</translation>
    </message>
    <message>
        <source>{0} played {1} ({2}, depth {3})</source>
        <translation>{0} сыграл {1} ({2}, глубина {3})</translation>
    </message>
    <message>
        <source>Hint: {0} ({1})</source>
        <translation>Подсказка: {0} ({1})</translation>
    </message>
    <message>
        <source>Analysis complete: {0} at depth {1}</source>
        <translation>Анализ завершён: {0} на глубине {1}</translation>
    </message>
    <message>
        <source>The engine failed: {0}</source>
        <translation>Сбой движка: {0}</translation>
    </message>
    <message>
        <source>The engine failed</source>
        <translation>Сбой движка</translation>
    </message>
    <message>
        <source>Analysis stopped</source>
        <translation>Анализ остановлен</translation>
    </message>
</context>
<context>
    <name>EvalGraph</name>
    <message>
        <source>The engine&apos;s scores over the main line; click to go to that move</source>
        <extracomment>Scores (in the engines&apos; units, 100 = one pawn or one &quot;point&quot;) marked on the scale of a two-player graph.</extracomment>
        <translation>Оценки движка вдоль главной линии; щелчок — перейти к ходу</translation>
    </message>
    <message>
        <source>{0} better</source>
        <translation>{0} лучше</translation>
    </message>
</context>
<context>
    <name>FilesMixin</name>
    <message>
        <source>No game has a file format to import</source>
        <translation>Ни у одной игры нет формата для импорта</translation>
    </message>
    <message>
        <source>Preparing engines…</source>
        <translation>Подготовка движков…</translation>
    </message>
</context>
<context>
    <name>LanguageMixin</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Язык</translation>
    </message>
    <message>
        <source>The window will be in {0} when gamesuite is started again.</source>
        <translation>При следующем запуске gamesuite окно будет на языке: {0}.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Analysis</source>
        <extracomment>The smallest window: at this size every board is whole and the docks keep their minimum sizes. The docks&apos; sizes at the default window size (the analysis panel&apos;s height, the right column&apos;s width).</extracomment>
        <translation>Анализ</translation>
    </message>
    <message>
        <source>Moves</source>
        <translation>Ходы</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Оценка</translation>
    </message>
    <message>
        <source>&amp;New game…</source>
        <translation>&amp;Новая игра…</translation>
    </message>
    <message>
        <source>Start a new game</source>
        <translation>Начать новую игру</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Открыть…</translation>
    </message>
    <message>
        <source>Open a saved game</source>
        <translation>Открыть сохранённую игру</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Сохранить</translation>
    </message>
    <message>
        <source>Save the game</source>
        <translation>Сохранить игру</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>Сохранить &amp;как…</translation>
    </message>
    <message>
        <source>Save the game to a new file</source>
        <translation>Сохранить игру в новый файл</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Импорт…</translation>
    </message>
    <message>
        <source>Open a game in the game&apos;s own file format</source>
        <translation>Открыть партию в собственном формате игры</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>Э&amp;кспорт…</translation>
    </message>
    <message>
        <source>Save the line shown in the game&apos;s own file format</source>
        <translation>Сохранить показанную линию в формате игры</translation>
    </message>
    <message>
        <source>&amp;Export diagram…</source>
        <translation>Экспорт &amp;диаграммы…</translation>
    </message>
    <message>
        <source>Save the board as PNG or SVG</source>
        <translation>Сохранить доску как PNG или SVG</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>В&amp;ыход</translation>
    </message>
    <message>
        <source>&amp;Take back</source>
        <translation>&amp;Вернуть ход</translation>
    </message>
    <message>
        <source>Take back your last move</source>
        <translation>Вернуть свой последний ход</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Повторить</translation>
    </message>
    <message>
        <source>Replay the next move</source>
        <translation>Повторить следующий ход</translation>
    </message>
    <message>
        <source>&amp;Copy position</source>
        <translation>&amp;Копировать позицию</translation>
    </message>
    <message>
        <source>Copy the position as text</source>
        <translation>Копировать позицию как текст</translation>
    </message>
    <message>
        <source>&amp;Paste position</source>
        <translation>&amp;Вставить позицию</translation>
    </message>
    <message>
        <source>Set up a position from text</source>
        <translation>Поставить позицию из текста</translation>
    </message>
    <message>
        <source>Set &amp;up position</source>
        <translation>&amp;Расстановка</translation>
    </message>
    <message>
        <source>Edit the position</source>
        <translation>Изменить позицию</translation>
    </message>
    <message>
        <source>First move</source>
        <translation>К началу</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Назад</translation>
    </message>
    <message>
        <source>One move back</source>
        <translation>На ход назад</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Вперёд</translation>
    </message>
    <message>
        <source>One move forward</source>
        <translation>На ход вперёд</translation>
    </message>
    <message>
        <source>Last move</source>
        <translation>К концу</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Начало</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Конец</translation>
    </message>
    <message>
        <source>Start/stop &amp;engine</source>
        <translation>Запустить/остановить &amp;движок</translation>
    </message>
    <message>
        <source>Start or stop the engine</source>
        <translation>Запустить или остановить движок</translation>
    </message>
    <message>
        <source>&amp;Hint</source>
        <translation>&amp;Подсказка</translation>
    </message>
    <message>
        <source>Ask the engine for a move</source>
        <translation>Спросить ход у движка</translation>
    </message>
    <message>
        <source>Engine &amp;settings…</source>
        <translation>&amp;Настройки движка…</translation>
    </message>
    <message>
        <source>The analysis engine, its options, limits and lines</source>
        <translation>Движок анализа: параметры, пределы, число линий</translation>
    </message>
    <message>
        <source>Engine &amp;manager…</source>
        <translation>&amp;Менеджер движков…</translation>
    </message>
    <message>
        <source>Add external USI and Gomocup engines</source>
        <translation>Добавить внешние движки USI и Gomocup</translation>
    </message>
    <message>
        <source>&amp;Flip board</source>
        <translation>&amp;Перевернуть доску</translation>
    </message>
    <message>
        <source>Turn the board around</source>
        <translation>Развернуть доску</translation>
    </message>
    <message>
        <source>&amp;Western piece letters</source>
        <translation>&amp;Западные буквы фигур</translation>
    </message>
    <message>
        <source>Shogi pieces with letters instead of kanji</source>
        <translation>Фигуры сёги буквами вместо иероглифов</translation>
    </message>
    <message>
        <source>&amp;Numbered stones</source>
        <translation>&amp;Номера на камнях</translation>
    </message>
    <message>
        <source>Show on each stone the number of its move</source>
        <translation>Показывать на каждом камне номер его хода</translation>
    </message>
    <message>
        <source>S&amp;ounds</source>
        <translation>&amp;Звуки</translation>
    </message>
    <message>
        <source>A sound for each move, capture and the end of the game</source>
        <translation>Звук для хода, взятия и конца игры</translation>
    </message>
    <message>
        <source>&amp;Japanese (▲７六歩)</source>
        <translation>&amp;Японская (▲７六歩)</translation>
    </message>
    <message>
        <source>W&amp;estern (P-7f)</source>
        <translation>&amp;Западная (P-7f)</translation>
    </message>
    <message>
        <source>&amp;USI (7g7f)</source>
        <translation>&amp;USI (7g7f)</translation>
    </message>
    <message>
        <source>T&amp;ype a move</source>
        <translation>&amp;Ввести ход</translation>
    </message>
    <message>
        <source>Type a move (h8, 7g7f, ７六歩…) and press Enter</source>
        <translation>Введите ход (h8, 7g7f, ７六歩…) и нажмите Enter</translation>
    </message>
    <message>
        <source>&amp;Play against the computer</source>
        <translation>&amp;Игра с компьютером</translation>
    </message>
    <message>
        <source>&amp;Analyse</source>
        <translation>&amp;Анализ</translation>
    </message>
    <message>
        <source>Engine follows every position</source>
        <translation>Движок анализирует каждую позицию</translation>
    </message>
    <message>
        <source>&amp;Light theme</source>
        <translation>&amp;Светлая тема</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>&amp;Тёмная тема</translation>
    </message>
    <message>
        <source>&amp;Game</source>
        <translation>&amp;Игра</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Правка</translation>
    </message>
    <message>
        <source>&amp;Moves</source>
        <translation>&amp;Ходы</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>&amp;Движок</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Вид</translation>
    </message>
    <message>
        <source>&amp;Move notation</source>
        <translation>&amp;Запись ходов</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Справка</translation>
    </message>
    <message>
        <source>&amp;How to use</source>
        <translation>&amp;Как пользоваться</translation>
    </message>
    <message>
        <source>&amp;Rules of the game</source>
        <translation>&amp;Правила игры</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>&amp;О программе</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Новая</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Открыть</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Сохранить</translation>
    </message>
    <message>
        <source>Take back</source>
        <translation>Вернуть</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>Подсказка</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Движок</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Игра</translation>
    </message>
    <message>
        <source>Analyse</source>
        <translation>Анализ</translation>
    </message>
    <message>
        <source>Flip</source>
        <translation>Развернуть</translation>
    </message>
    <message>
        <source>Set up</source>
        <translation>Расстановка</translation>
    </message>
    <message>
        <source>Preparing engines…</source>
        <translation>Подготовка движков…</translation>
    </message>
    <message>
        <source>The computer is to move (Space makes it move now)</source>
        <translation>Ход компьютера (пробел — ходить сейчас)</translation>
    </message>
    <message>
        <source>Nothing to take back</source>
        <translation>Нечего возвращать</translation>
    </message>
    <message>
        <source>Analyse mode</source>
        <translation>Режим анализа</translation>
    </message>
    <message>
        <source>Play mode</source>
        <translation>Режим игры</translation>
    </message>
    <message>
        <source>Setting up a position: click to place, right-click to remove, then Done</source>
        <translation>Расстановка: щелчок — поставить, правый щелчок — убрать, затем «Готово»</translation>
    </message>
    <message>
        <source>Game over: {0}</source>
        <translation>Игра окончена: {0}</translation>
    </message>
    <message>
        <source>{0} to move — {1}…</source>
        <translation>Ход: {0} — {1}…</translation>
    </message>
    <message>
        <source>{0} to move — the computer is thinking…</source>
        <translation>Ход: {0} — компьютер думает…</translation>
    </message>
    <message>
        <source>{0} to move (computer) — go to the last move to let it play</source>
        <translation>Ход: {0} (компьютер) — перейдите к последнему ходу, чтобы он сыграл</translation>
    </message>
    <message>
        <source>{0} to move (computer)</source>
        <translation>Ход: {0} (компьютер)</translation>
    </message>
    <message>
        <source>{0} to move</source>
        <translation>Ход: {0}</translation>
    </message>
    <message>
        <source>Sounds are on, but this machine is silent: {0}</source>
        <translation>Звуки включены, но этот компьютер молчит: {0}</translation>
    </message>
    <message>
        <source>{0}: no move can be typed now</source>
        <translation>{0}: сейчас нельзя ввести ход</translation>
    </message>
    <message>
        <source>setting up a position</source>
        <translation>идёт расстановка</translation>
    </message>
    <message>
        <source>preparing engines</source>
        <translation>движки готовятся</translation>
    </message>
    <message>
        <source>{0} is not a move here: {1}</source>
        <translation>{0} — здесь не ход: {1}</translation>
    </message>
</context>
<context>
    <name>MoveEntry</name>
    <message>
        <source>Type a move</source>
        <extracomment>Characters that may start a typed move (letters, digits, and the marks notation uses). Keys an empty entry leaves to the window&apos;s shortcuts (walking through the game, the engine).</extracomment>
        <translation>Введите ход</translation>
    </message>
    <message>
        <source>Type a move and press Enter: h8, 7g7f, P*5e, ７六歩, P-7f… (typing over the board starts here; Esc leaves)</source>
        <translation>Введите ход и нажмите Enter: h8, 7g7f, P*5e, ７六歩, P-7f… (ввод над доской начинается здесь; Esc — выход)</translation>
    </message>
</context>
<context>
    <name>NewGameDialog</name>
    <message>
        <source>New game</source>
        <translation>Новая игра</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Параметры</translation>
    </message>
    <message>
        <source>Opening</source>
        <translation>Дебют</translation>
    </message>
    <message>
        <source>None: Black plays first</source>
        <translation>Нет: чёрные ходят первыми</translation>
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
        <translation>Правило дебюта</translation>
    </message>
    <message>
        <source>Players</source>
        <translation>Игроки</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>Часы</translation>
    </message>
    <message>
        <source>The same for every player</source>
        <translation>Одинаковые для всех</translation>
    </message>
    <message>
        <source>Time control</source>
        <translation>Контроль времени</translation>
    </message>
    <message>
        <source>Game</source>
        <translation>Игра</translation>
    </message>
    <message>
        <source>Engine for {0}</source>
        <translation>Движок для: {0}</translation>
    </message>
    <message>
        <source>Swap openings</source>
        <translation>Дебюты со сменой цвета</translation>
    </message>
    <message>
        <source>The proposer places three stones (black, white, black); the chooser takes Black (swap) or stays White and plays the 4th stone.</source>
        <translation>Предлагающий ставит три камня (чёрный, белый, чёрный); выбирающий берёт чёрные (обмен) или остаётся белыми и ставит 4-й камень.</translation>
    </message>
    <message>
        <source>As swap1, or the chooser places two more stones (4th and 5th) and the proposer chooses the colour.</source>
        <translation>Как swap1, или выбирающий ставит ещё два камня (4-й и 5-й), и цвет выбирает предлагающий.</translation>
    </message>
    <message>
        <source>proposer</source>
        <translation>предлагающий</translation>
    </message>
    <message>
        <source>chooser</source>
        <translation>выбирающий</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0} ({1})</translation>
    </message>
    <message>
        <source>No swap: Black plays first as usual.</source>
        <translation>Без обмена: чёрные ходят первыми, как обычно.</translation>
    </message>
</context>
<context>
    <name>OptionsForm</name>
    <message>
        <source>Hash (MB)</source>
        <extracomment>Options shown first (hash and threads), by lower-case name, with the label they get. The limits an engine may have of its own (``@key=N`` in its spec).</extracomment>
        <translation>Хеш (МБ)</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Потоки</translation>
    </message>
    <message>
        <source>Memory (bytes)</source>
        <translation>Память (байт)</translation>
    </message>
</context>
<context>
    <name>PlayerRow</name>
    <message>
        <source>Human</source>
        <translation>Человек</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>Компьютер</translation>
    </message>
    <message>
        <source>Engine spec: a name and options, e.g. &apos;solver,hash=16&apos;</source>
        <translation>Спецификация движка: имя и параметры, напр. &apos;solver,hash=16&apos;</translation>
    </message>
    <message>
        <source>ms per move</source>
        <translation>мс на ход</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>глубина</translation>
    </message>
    <message>
        <source>This player&apos;s clock (a computer with a clock ignores its time or depth per move)</source>
        <translation>Часы этого игрока (компьютер с часами не смотрит на время или глубину на ход)</translation>
    </message>
    <message>
        <source>Engine settings: the engine, its options and limits</source>
        <translation>Настройки движка: движок, параметры, пределы</translation>
    </message>
</context>
<context>
    <name>Players</name>
    <message>
        <source>Black</source>
        <extracomment>The languages offered, each by its own name. The games&apos; player names, translated where the window writes them (``notation.Notation.player``).</extracomment>
        <translation>Чёрные</translation>
    </message>
    <message>
        <source>White</source>
        <translation>Белые</translation>
    </message>
    <message>
        <source>Sente</source>
        <translation>Сэнтэ</translation>
    </message>
    <message>
        <source>Gote</source>
        <translation>Готэ</translation>
    </message>
    <message>
        <source>Red</source>
        <translation>Красный</translation>
    </message>
    <message>
        <source>Blue</source>
        <translation>Синий</translation>
    </message>
    <message>
        <source>Yellow</source>
        <translation>Жёлтый</translation>
    </message>
    <message>
        <source>Green</source>
        <translation>Зелёный</translation>
    </message>
    <message>
        <source>Purple</source>
        <translation>Фиолетовый</translation>
    </message>
    <message>
        <source>Chance</source>
        <translation>Случай</translation>
    </message>
</context>
<context>
    <name>SetupMixin</name>
    <message>
        <source>To move:</source>
        <translation>Ход:</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Очистить</translation>
    </message>
    <message>
        <source>Empty the board</source>
        <translation>Очистить доску</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Готово</translation>
    </message>
    <message>
        <source>Check the position and start from it</source>
        <translation>Проверить позицию и начать с неё</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <source>Leave the editor; the game stays as it was</source>
        <translation>Выйти из редактора; игра не меняется</translation>
    </message>
</context>
<context>
    <name>SwapMixin</name>
    <message>
        <source>the proposer</source>
        <extracomment>The keys of the choices: swap, stay (one stone), two stones.</extracomment>
        <translation>предлагающий</translation>
    </message>
    <message>
        <source>the chooser</source>
        <translation>выбирающий</translation>
    </message>
    <message>
        <source>the computer</source>
        <translation>компьютер</translation>
    </message>
    <message>
        <source>you</source>
        <translation>вы</translation>
    </message>
    <message>
        <source>The game&apos;s swap opening is left out: {0}</source>
        <translation>Дебют со сменой цвета в этой партии пропущен: {0}</translation>
    </message>
    <message>
        <source>{0}: this game has no swap opening</source>
        <translation>{0}: в этой партии нет дебюта со сменой цвета</translation>
    </message>
    <message>
        <source>{0}: the {1} opening is settled</source>
        <translation>{0}: дебют {1} уже решён</translation>
    </message>
    <message>
        <source>{0}: the {1} opening is not settled; go to the last stone to go on</source>
        <translation>{0}: дебют {1} ещё не решён; перейдите к последнему камню, чтобы продолжить</translation>
    </message>
    <message>
        <source>{0}: the computer answers here (Space makes it answer now)</source>
        <translation>{0}: здесь отвечает компьютер (пробел — ответить сейчас)</translation>
    </message>
    <message>
        <source>{0} is not allowed now: {1}</source>
        <translation>{0} сейчас нельзя: {1}</translation>
    </message>
    <message>
        <source>stay</source>
        <translation>остаться</translation>
    </message>
    <message>
        <source>Place the stones of the answer begun first</source>
        <translation>Сначала поставьте камни начатого ответа</translation>
    </message>
    <message>
        <source>two stones</source>
        <translation>два камня</translation>
    </message>
    <message>
        <source>Two stones are not allowed now: {0} allows {1}</source>
        <translation>Два камня сейчас нельзя: {0} допускает {1}</translation>
    </message>
    <message>
        <source>{0}: the first {1} stones were agreed in the {2} opening; variations begin after them</source>
        <translation>{0}: первые камни ({1}) согласованы в дебюте {2}; варианты начинаются после них</translation>
    </message>
    <message>
        <source>{0} is not allowed: {1}</source>
        <translation>{0} нельзя: {1}</translation>
    </message>
    <message>
        <source>The {0} opening stands: take back reaches back to its last stone, not into it</source>
        <translation>Дебют {0} остаётся: возврат доходит до его последнего камня, не дальше</translation>
    </message>
    <message>
        <source>Took back the last stone of the answer</source>
        <translation>Последний камень ответа возвращён</translation>
    </message>
    <message>
        <source>The answers given in the {0} opening stand (a new game negotiates again)</source>
        <translation>Ответы, данные в дебюте {0}, остаются (в новой партии можно договориться заново)</translation>
    </message>
    <message>
        <source>The computer&apos;s answer in the {0} opening is against the rules: {1}</source>
        <translation>Ответ компьютера в дебюте {0} нарушает правила: {1}</translation>
    </message>
    <message>
        <source>The computer swaps: it takes Black; you play White</source>
        <translation>Компьютер меняет цвет: он берёт чёрные, вы играете белыми</translation>
    </message>
    <message>
        <source>You swap: you take Black; the computer plays White</source>
        <translation>Вы меняете цвет: вы берёте чёрные, компьютер играет белыми</translation>
    </message>
    <message>
        <source>{0} swaps: takes Black; {1} plays White</source>
        <translation>{0}: обмен — берёт чёрные; {1} играет белыми</translation>
    </message>
    <message>
        <source>{0} placed the opening: {1}</source>
        <translation>{0}: дебют поставлен: {1}</translation>
    </message>
    <message>
        <source>You placed two stones ({0}); the computer chooses</source>
        <translation>Вы поставили два камня ({0}); выбирает компьютер</translation>
    </message>
    <message>
        <source>You take White and play {0}</source>
        <translation>Вы берёте белые и ходите {0}</translation>
    </message>
    <message>
        <source>You stay White and play {0}</source>
        <translation>Вы остаётесь белыми и ходите {0}</translation>
    </message>
    <message>
        <source>{0} placed two stones ({1}) and hands the choice back</source>
        <translation>{0}: поставлены два камня ({1}), выбор передан обратно</translation>
    </message>
    <message>
        <source>{0} takes White and plays {1}</source>
        <translation>{0}: берёт белые и ходит {1}</translation>
    </message>
    <message>
        <source>{0} stays White and plays {1}</source>
        <translation>{0}: остаётся белыми и ходит {1}</translation>
    </message>
    <message>
        <source>{0} opening: go to the last stone to go on</source>
        <translation>Дебют {0}: перейдите к последнему камню, чтобы продолжить</translation>
    </message>
    <message>
        <source>{0}: the computer is proposing the opening…</source>
        <translation>{0}: компьютер предлагает дебют…</translation>
    </message>
    <message>
        <source>{0}: the computer is deciding: swap, or stay and play…</source>
        <translation>{0}: компьютер решает: обмен или остаться и ходить…</translation>
    </message>
    <message>
        <source>{0}: the computer answers ({1})</source>
        <translation>{0}: отвечает компьютер ({1})</translation>
    </message>
    <message>
        <source>{0}: you propose: place stone {1} of 3 ({2})</source>
        <translation>{0}: вы предлагаете: поставьте камень {1} из 3 ({2})</translation>
    </message>
    <message>
        <source>{0}: {1} places the opening: stone {2} of 3 ({3})</source>
        <translation>{0}: {1} ставит дебют: камень {2} из 3 ({3})</translation>
    </message>
    <message>
        <source>{0}: place two stones: stone {1} of 2 ({2}); then the computer chooses</source>
        <translation>{0}: поставьте два камня: камень {1} из 2 ({2}); затем выбирает компьютер</translation>
    </message>
    <message>
        <source>{0}: {1} places two stones: stone {2} of 2 ({3}); then {4} chooses</source>
        <translation>{0}: {1} ставит два камня: камень {2} из 2 ({3}); затем выбирает {4}</translation>
    </message>
    <message>
        <source>your choice</source>
        <translation>ваш выбор</translation>
    </message>
    <message>
        <source>{0} chooses</source>
        <translation>выбирает {0}</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black), stay White and place the 4th stone, or place two stones</source>
        <translation>{0}: {1}: обмен (взять чёрные), остаться белыми и поставить 4-й камень или поставить два камня</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black) or stay White and place the 4th stone</source>
        <translation>{0}: {1}: обмен (взять чёрные) или остаться белыми и поставить 4-й камень</translation>
    </message>
    <message>
        <source>{0}: {1}: swap (take Black) or take White and place the 6th stone</source>
        <translation>{0}: {1}: обмен (взять чёрные) или взять белые и поставить 6-й камень</translation>
    </message>
    <message>
        <source>Swap: take Black</source>
        <translation>Обмен: взять чёрные</translation>
    </message>
    <message>
        <source>Stay White: place the 4th stone</source>
        <translation>Остаться белыми: 4-й камень</translation>
    </message>
    <message>
        <source>Take White: place the 6th stone</source>
        <translation>Взять белые: 6-й камень</translation>
    </message>
    <message>
        <source>Place two stones (4th and 5th) and let {0} choose</source>
        <translation>Поставить два камня (4-й и 5-й), выбирает {0}</translation>
    </message>
</context>
</TS>
