"""The desktop program (Qt). The only package that imports PySide6."""
