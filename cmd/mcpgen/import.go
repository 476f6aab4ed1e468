package main

import (
	"github.com/spf13/cobra"
)

// importCommand declares `mcpgen import` and the formats it reads, one
// subcommand each.
func importCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:         "import FORMAT SOURCE [flags]",
		Short:       "write a config from an API description (openapi, graphql)",
		Args:        cobra.ArbitraryArgs, // an unknown format gets our own message
		RunE:        pickSubcommand("format"),
		Annotations: subcommands("format", "Formats"),
	}
	cmd.AddCommand(graphqlCommand(), openapiCommand())
	return cmd
}
