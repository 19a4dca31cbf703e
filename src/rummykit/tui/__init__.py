"""The terminal table: ``rummykit play`` against bots.

:mod:`rummykit.tui.app` is the full-screen game (Textual) for a real terminal; its panels
(:mod:`rummykit.tui.panels`) and :mod:`rummykit.tui.render`'s pieces turn what one seat may see
(a :class:`~rummykit.engine.views.SeatView`, the events as that seat saw them, the score sheet)
into Rich text, and never read a deal, so they cannot show another seat's hand or the stock.
:mod:`rummykit.tui.hand` keeps the person's own arrangement of the hand between turns.
:mod:`rummykit.tui.game` is the line mode (pipes, scripts, ``--line``): it drives the same
:class:`~rummykit.engine.session.MatchSession` and reads one short command a line from an
``ask`` function, so a list of scripted lines and a captured console can drive it.  The words
people read about the moves (:class:`~rummykit.tui.game.MoveLog`) are shared by both.
"""
