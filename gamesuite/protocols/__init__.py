"""Engine protocols (USI, Gomocup, JSON lines): one module per protocol with ``main(argv)``."""
