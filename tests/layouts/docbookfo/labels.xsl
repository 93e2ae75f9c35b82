<?xml version="1.0" encoding="UTF-8"?>
<!-- The number DocBook XSL gives each formal object, by the house style's own parameters (it imports
     custom.xsl): one line "id|kind|label|" per figure, table, example, equation and titled procedure (DocBook numbers a procedure that has a title). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:import href="custom.xsl"/>
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/">
    <xsl:for-each select="//figure | //table | //example | //equation | //procedure[title]">
      <xsl:value-of select="@id"/>
      <xsl:text>|</xsl:text>
      <xsl:value-of select="local-name()"/>
      <xsl:text>|</xsl:text>
      <xsl:apply-templates select="." mode="label.markup"/>
      <xsl:text>|&#10;</xsl:text>
    </xsl:for-each>
  </xsl:template>
</xsl:stylesheet>
