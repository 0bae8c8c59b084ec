"""What the tests share: the random games (``support.playouts``, over the one generator in
``recorder.core.playout``) and the board helpers every variant's rule tests use
(``support.boards``). Not a test module."""
