"""The version of modelmine, in a module of its own so that any module can read it
without importing the package (and so every stage) above it."""

__version__ = "0.1.0"
