/**
 * The names generated legacy clients embed (.NET proxies, Axis locators, PHP class maps): the classic
 * Magento set, kept in one place so a deployment could switch to another product's set.
 */
export const NAMES = {
  /** targetNamespace, soap:body namespace and the `typens` prefix */
  namespace: 'urn:Magento',
  definitions: 'Magento',
  service: 'MagentoService',
  handlers: {
    v1: 'Mage_Api_Model_Server_Handler',
    v2: 'Mage_Api_Model_Server_V2_Handler',
    wsi: 'Mage_Api_Model_Server_Wsi_Handler',
  },
} as const;

export const NS = {
  env: 'http://schemas.xmlsoap.org/soap/envelope/',
  enc: 'http://schemas.xmlsoap.org/soap/encoding/',
  xsd: 'http://www.w3.org/2001/XMLSchema',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  /** Apache SOAP's Map type, which PHP and Axis use for associative arrays */
  apache: 'http://xml.apache.org/xml-soap',
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  wsdlSoap: 'http://schemas.xmlsoap.org/wsdl/soap/',
} as const;

/** The store config paths of the interface. */
export const CONFIG = {
  /** 1: /api/v2_soap/?wsdl serves the WS-I (document/literal) document instead of the rpc/encoded one */
  wsi: 'api/config/compliance_wsi',
  /** idle lifetime of a session, in seconds */
  sessionTimeout: 'api/config/session_timeout',
} as const;
