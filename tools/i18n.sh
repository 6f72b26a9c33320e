#!/bin/sh
# The window's translations: extract the texts of gamesuite/gui (PySide6's lupdate) into
# gamesuite/resources/i18n/gamesuite_LANG.ts (translations already made are kept), then compile
# them (lrelease) into the .qm files shipped as package data. Run from the repository root after
# changing a text of the window; translate the new entries (Qt Linguist: pyside6-linguist FILE.ts).
set -e
cd "$(dirname "$0")/.."
for lang in ja zh_CN ru; do
    pyside6-lupdate -no-obsolete -locations none -source-language en -target-language "$lang" \
        gamesuite/gui/*.py gamesuite/gui/boards/*.py -ts "gamesuite/resources/i18n/gamesuite_$lang.ts"
    pyside6-lrelease -silent "gamesuite/resources/i18n/gamesuite_$lang.ts" -qm "gamesuite/resources/i18n/gamesuite_$lang.qm"
done
