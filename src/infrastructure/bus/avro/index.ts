export * from './registry';
export * from './messages';
export { defaultSchemasDir, readSchemaFiles, type SchemaFile } from './schema-files';
export * from './avro-shape';
export * from './event-data';
