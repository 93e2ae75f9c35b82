"""Re-save a PDF through PDFium, as PDFium-based tools (Chrome's viewer and printer, editors built on
PDFium) hand books on: open SOURCE with pypdfium2 and save it to TARGET with PDFium's own writer.

    python pdfium_resave.py SOURCE TARGET

Used by the Makefile for the set-ups whose PDF is typeset and then re-saved (setup-mdutopia-bx.tex).
"""

import sys

import pypdfium2 as pdfium


def resave(source: str, target: str) -> None:
    pdf = pdfium.PdfDocument(source)
    try:
        with open(target, "wb") as out:
            pdf.save(out)
    finally:
        pdf.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    resave(sys.argv[1], sys.argv[2])
