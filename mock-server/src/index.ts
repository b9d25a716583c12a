export { startMockServer, type MockServer, type MockServerOptions } from "./server.ts";
export { DEFAULT_PORT, DEFAULT_TOKEN, DEFAULT_MAX_PER_PAGE } from "./defaults.ts";
export type { NewComment } from "./new-comment.ts";
export {
  loadMockData,
  MockDataError,
  mockDataFormat,
  mockDataVersion,
  type MockData,
  type MockDataComment,
  type MockDataReply,
  type MockDataSource,
  type MockDataThread,
} from "./data-file.ts";
export { outageModes, type OutageMode } from "./runtime-faults.ts";
export type { FaultOptions, FaultSettings } from "./faults.ts";
export {
  generateDataset,
  exampleDomain,
  emptyDomain,
  showcasePaths,
  type StoredComment,
  type DatasetOptions,
} from "./dataset/generate-dataset.ts";
export { CommentStore } from "./dataset/comment-store.ts";
export { hostileBodies, authorNames, codeSamples } from "./dataset/text-corpus.ts";
export { xssBodies, xssNames } from "./dataset/xss-corpus.ts";
