<?xml version="1.0" encoding="UTF-8"?>
<!-- The house style of "Stock on Hand": the DocBook XSL stylesheets for print (XSL-FO), customised as a
     small technical publisher would, for Apache FOP. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:fo="http://www.w3.org/1999/XSL/Format">
  <xsl:import href="/usr/share/xml/docbook/stylesheet/docbook-xsl/fo/docbook.xsl"/>

  <!-- the processor: FOP's bookmarks and internal destinations -->
  <xsl:param name="fop1.extensions" select="1"/>

  <!-- a trade-book page, printed on both sides -->
  <xsl:param name="paper.type" select="'custom'"/>
  <xsl:param name="page.width" select="'7in'"/>
  <xsl:param name="page.height" select="'9.25in'"/>
  <xsl:param name="double.sided" select="1"/>
  <xsl:param name="page.margin.inner" select="'0.9in'"/>
  <xsl:param name="page.margin.outer" select="'0.7in'"/>
  <xsl:param name="page.margin.top" select="'0.5in'"/>
  <xsl:param name="page.margin.bottom" select="'0.5in'"/>
  <xsl:param name="body.start.indent" select="'0pt'"/>
  <xsl:param name="body.font.master" select="10"/>
  <xsl:param name="hyphenate" select="'false'"/>
  <xsl:param name="alignment" select="'justify'"/>

  <!-- numbering: chapters, and sections by chapter ("2.3") -->
  <xsl:param name="chapter.autolabel" select="1"/>
  <xsl:param name="section.autolabel" select="1"/>
  <xsl:param name="section.autolabel.max.depth" select="2"/>
  <xsl:param name="section.label.includes.component.label" select="1"/>

  <!-- contents: chapters and sections only -->
  <xsl:param name="generate.toc" select="'book toc,title'"/>
  <xsl:param name="toc.section.depth" select="1"/>

  <!-- titles of formal objects: figures under their body, the rest above -->
  <xsl:param name="formal.title.placement">
    figure after
    example before
    equation before
    table before
    procedure before
  </xsl:param>

  <!-- admonitions in ruled boxes, no graphics -->
  <xsl:param name="admon.graphics" select="0"/>
  <xsl:param name="admon.textlabel" select="1"/>
  <xsl:attribute-set name="admonition.properties">
    <xsl:attribute name="border">0.5pt solid black</xsl:attribute>
    <xsl:attribute name="padding">4pt</xsl:attribute>
  </xsl:attribute-set>
  <xsl:attribute-set name="sidebar.properties">
    <xsl:attribute name="border">0.5pt solid black</xsl:attribute>
    <xsl:attribute name="background-color">#eeeeee</xsl:attribute>
    <xsl:attribute name="padding">6pt</xsl:attribute>
  </xsl:attribute-set>
  <xsl:attribute-set name="shade.verbatim.style">
    <xsl:attribute name="background-color">#f0f0f0</xsl:attribute>
  </xsl:attribute-set>
  <xsl:param name="shade.verbatim" select="1"/>

  <!-- running heads: the chapter's title, a thin rule; the folio at the outer edge of the foot -->
  <xsl:param name="header.rule" select="1"/>
  <xsl:param name="footer.rule" select="0"/>
  <xsl:param name="header.column.widths" select="'1 4 1'"/>

  <xsl:template name="footer.content">
    <xsl:param name="pageclass" select="''"/>
    <xsl:param name="sequence" select="''"/>
    <xsl:param name="position" select="''"/>
    <xsl:param name="gentext-key" select="''"/>
    <fo:block>
      <xsl:choose>
        <xsl:when test="$pageclass = 'titlepage'"/>
        <xsl:when test="$sequence = 'blank'"/>
        <xsl:when test="$double.sided != 0 and $sequence = 'even' and $position = 'left'">
          <fo:page-number/>
        </xsl:when>
        <xsl:when test="$double.sided != 0 and ($sequence = 'odd' or $sequence = 'first') and $position = 'right'">
          <fo:page-number/>
        </xsl:when>
      </xsl:choose>
    </fo:block>
  </xsl:template>

  <xsl:template name="header.content">
    <xsl:param name="pageclass" select="''"/>
    <xsl:param name="sequence" select="''"/>
    <xsl:param name="position" select="''"/>
    <xsl:param name="gentext-key" select="''"/>
    <fo:block>
      <xsl:choose>
        <xsl:when test="$pageclass = 'titlepage' or $sequence = 'blank' or $sequence = 'first'"/>
        <xsl:when test="$position = 'center' and $pageclass = 'body'">
          <xsl:apply-templates select="." mode="object.title.markup"/>
        </xsl:when>
      </xsl:choose>
    </fo:block>
  </xsl:template>
</xsl:stylesheet>
