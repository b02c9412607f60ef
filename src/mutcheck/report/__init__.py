"""Renderers: a results document in, text for a terminal, Markdown, HTML or Stryker JSON out."""
