export * from './bindings';
export * from './errors';
export * from './values';
export * from './datetime';
export * from './xml-text';
export { parseXml, childNamed, childrenNamed, isNil, XSI_NS, type XmlElement, type XmlLimits } from './xml-tree';
export * from './request';
export * from './response';
export { unchanging } from './result-content';
