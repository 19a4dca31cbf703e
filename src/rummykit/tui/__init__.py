"""The terminal table: ``rummykit play`` against bots.

:mod:`rummykit.tui.render` turns what one seat may see (a :class:`~rummykit.engine.views.SeatView`,
the score sheet) into Rich renderables; it never reads a deal, so it cannot show another seat's
hand or the stock.  :mod:`rummykit.tui.game` is the game loop: it drives a
:class:`~rummykit.engine.session.MatchSession`, asks the bots, and reads one short command a line
from an ``ask`` function, so a list of scripted lines and a captured console can drive it as well
as a person at a keyboard.
"""
