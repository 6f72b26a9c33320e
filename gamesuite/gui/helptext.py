"""The Help menu's texts: how to use the window, and the rules of each game in our own words."""

from __future__ import annotations

from ..core.registry import Game

HELP = """
<h3>Playing</h3>
<p>Click the board to play a move; the computer answers when it is its turn.
Shogi: click a piece (or a piece in your hand), then one of the marked squares.
Hare and Hedgehog: click the square to move to, or a button under the track
(stay and take 10 carrots, eat a lettuce…).</p>
<table cellspacing="4">
<tr><td><b>Space</b></td><td>start or stop the engine; on the computer's turn: move now</td></tr>
<tr><td><b>H</b></td><td>hint</td></tr>
<tr><td><b>F</b></td><td>flip the board</td></tr>
<tr><td><b>Left / Right</b></td><td>one move back / forward</td></tr>
<tr><td><b>Home, Up / End, Down</b></td><td>first / last move</td></tr>
<tr><td><b>Ctrl+Z / Ctrl+Shift+Z</b></td><td>take back / redo</td></tr>
<tr><td><b>Ctrl+N / Ctrl+O / Ctrl+S</b></td><td>new game / open / save</td></tr>
<tr><td><b>Ctrl+1 / Ctrl+2</b></td><td>play mode / analyse mode (the engine follows every position)</td></tr>
<tr><td><b>Ctrl+P</b></td><td>set up a position</td></tr>
<tr><td><b>Ctrl+Shift+C / Ctrl+Shift+V</b></td><td>copy / paste the position (text with moves becomes a game
with those moves)</td></tr>
</table>
<h3>Nothing is lost</h3>
<p>The game is autosaved after every move, and quitting keeps it: the next launch opens it again.
New game, Open, Import, Paste position and a set-up position ask <i>Save / Discard / Cancel</i>
when the game has moves that are in no file (the title then starts with <b>*</b>).</p>
<h3>Analysis</h3>
<p>The <i>Lines</i> tab shows the engine's best lines, one row per line, each rewritten as the engine
goes deeper (<i>lines</i> sets how many); <i>By depth</i> keeps every report. Scores are from the
first player's point of view (<tt>+0.35</tt> favours X, Black or Sente); in games of more than two
players there is one score column per player. Click a move of a line to preview the line on the
board up to it; double-click to play its first move. The <i>Evaluation</i> graph plots the scores
over the game (its scale on the left, move numbers below); click it to go to that move.</p>
<h3>Clocks</h3>
<p>New game sets base + increment or base + byoyomi. A clock runs for the side to move in play mode at
the end of the line; it stops while you analyse, set up a position or look back.</p>
<h3>Swap openings (gomoku)</h3>
<p>New game › <i>Opening</i> offers swap1 and swap2 for freestyle and standard gomoku. The first player
(Black) <i>proposes</i>: places three stones, black, white, black. The second <i>chooses</i>: <b>Swap</b>
(takes Black; the proposer plays White's 4th stone) or <b>Stay White</b> (clicks the 4th stone); under swap2
also <b>Place two stones</b> (4th and 5th), after which the proposer chooses: swap, or take White and play
the 6th. The buttons appear above the board (Alt+S, Alt+T, Alt+W), or type <tt>swap</tt> in the move
entry. A computer decides by its search (Space makes it decide now). Take back removes the stones of
the answer being placed; the answers given stand. The clocks start once the opening is settled; the
saved game keeps the negotiation.</p>
<h3>Variations</h3>
<p>Playing a different move in the past starts a variation; it is kept in the move list (right-click a
move to make it the main line or delete it).</p>
<p>The rules of the game shown: <b>Help › Rules of the game</b>.</p>
"""

RULES = {
    "tictactoe": """
<h3>Tic-tac-toe and m,n,k games</h3>
<p>Two players, X and O, take turns to put a mark on an empty cell of an m×n board (3×3 unless you
choose otherwise); X begins. The first to have k marks in a row, across, down or diagonally, wins
(three on the usual board). A full board without such a row is a draw.</p>
""",
    "gomoku": """
<h3>Gomoku</h3>
<p>Black and White take turns to put a stone on an empty point of the board (15×15 unless you choose
otherwise); Black begins. The first to make a row of five stones, across, down or diagonally, wins; a
full board is a draw. In freestyle and standard the players may negotiate the opening first (swap1, swap2:
see Help › How to use).</p>
<ul>
<li><b>freestyle</b>: a row of five or more wins;</li>
<li><b>standard</b>: exactly five wins (six or more do not);</li>
<li><b>renju</b>: White wins with five or more; Black needs exactly five and may not play a point that
makes two open threes at once, two fours at once or a row of six or more (such points are crossed out in
red). Black wins when a five and a forbidden shape come together.</li>
</ul>
""",
    "shogi": """
<h3>Shogi</h3>
<p>Sente (moves first, at the bottom) and Gote each have a king, a rook, a bishop, two gold and two silver
generals, two knights, two lances and nine pawns. The aim is to checkmate the enemy king.</p>
<ul>
<li><b>Captures change sides</b>: a captured piece goes to the captor's hand, and instead of moving, a player
may <b>drop</b> a piece from the hand onto any empty square, unpromoted.</li>
<li><b>Promotion</b>: a piece that moves into, out of or within the last three ranks may promote (rook to
dragon, bishop to horse, silver, knight, lance and pawn to a gold's move). A pawn or lance on the last
rank, or a knight on the last two, must promote.</li>
<li>Drops: no second unpromoted pawn on a file (<i>nifu</i>); no pawn drop that gives checkmate; no piece
dropped where it could never move.</li>
<li>Fourfold repetition is a draw, except that perpetual check loses for the checking side. Two kings that
have both entered the enemy camp end the game by a count of points (impasse).</li>
</ul>
<p>Minishogi (5×5) has one of each piece but the knights and lances and one pawn each; promotion is on
the last rank.</p>
""",
    "hare": """
<h3>Hare and Hedgehog</h3>
<p>A race of 2 to 6 players along 65 squares, from the start (square 0) to the finish (square 64).
You pay for speed with carrots and have to get rid of your lettuces on the way. The first player home
wins; the others are placed in the order they arrive.</p>
<p><b>At the start</b> each player has 68 carrots and 3 lettuces (98 carrots with 5 or 6 players). With two
players each has <b>two hares</b> (98 carrots, 5 lettuces) and moves one of them on a turn; a player is home
when both are. Any number of pieces may share the start and the finish; every other square holds one.</p>
<p><b>Moving forward</b> n squares costs 1 + 2 + … + n carrots: 1 square costs 1, 2 cost 3, 3 cost 6,
10 cost 55. The square reached must be free; occupied squares on the way count. You may never land on a
hedgehog square moving forward, and on a lettuce square only while you still hold a lettuce.</p>
<p><b>Moving back</b> is allowed only to the nearest hedgehog square behind you, if it is free; you are
<i>paid</i> 10 carrots for each square you go back.</p>
<p><b>The squares</b></p>
<ul>
<li><b>Carrot</b> (C): instead of moving, you may stay and take 10 carrots, or give 10 away, turn after turn.</li>
<li><b>Lettuce</b> (L): on your next turn you must stay and eat a lettuce: one lettuce less, and 10 carrots
for each place of your race position (10 if you lead, 30 if two are ahead of you). Then you must move on.</li>
<li><b>Position squares</b> (1/5/6, 2, 3, 4): at the start of your next turn, if your race position is the
number on the square, you get 10 carrots times that number (1/5/6 pays 10, 50 or 60).</li>
<li><b>Hare</b> (H): landing on it draws a hare card, which acts at once (see below). You may not stay there.</li>
<li><b>Hedgehog</b> (Hg): reached only by moving back.</li>
</ul>
<p>Your <b>race position</b> is 1 plus the number of pieces ahead of you on the track plus the pieces already
home.</p>
<p><b>Finishing</b>: you may enter the finish only without lettuces and with at most 10 carrots per place
(the first home may keep 10, the second 20, and so on) once the move is paid for. With two hares, the
second one home may keep at most 20.</p>
<p><b>Stuck</b>: a player who has no legal move goes back to the nearest hedgehog square if it is free,
otherwise to the start with the starting carrots (the lettuces are kept).</p>
<p><b>Hare cards</b> (the 2008 deck of 15): give 10 carrots to each player behind you; miss a turn if more
players are behind you than ahead, otherwise move again; set your carrots to 65; take 10 carrots per
lettuce you hold (none: miss a turn); lose half your carrots; a free ride (the move here is refunded);
show your carrots; shuffle the deck and take a carrot from each other player. A card goes under the deck
after use, so the window draws each card with the deck's true odds; the move list records the card drawn.</p>
<p><b>Carrots are open</b> in gamesuite: the panel under the track shows every player's carrots, and the
computer plays knowing them (the board game hides them).</p>
<p>In the window the players are named by their colour (Red, Blue, Yellow, Green, White, Purple); the
analysis panel has one score column per player (higher is better for that player), and lines and the move
list say which player goes where (<i>Red to 12 (carrot)</i>).</p>
""",
}


def help_html() -> str:
    return HELP


def rules_html(game: Game) -> str:
    """The rules of ``game`` (its family), or a pointer to ``gamesuite games``."""
    return RULES.get(game.name, f"<h3>{game.long_name}</h3><p>{game.description}</p>")
